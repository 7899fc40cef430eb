import { heroSlides } from '../../shared/home/home.ts';
import { endpoint } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.getHero, async () => ok(await heroSlides()));
