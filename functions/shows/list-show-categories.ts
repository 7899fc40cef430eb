import { endpoint } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { showCategories } from '../../shared/shows/shows.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.listShowCategories, async () => ok(await showCategories()));
