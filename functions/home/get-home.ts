import { homeSections } from '../../shared/home/home.ts';
import { endpoint } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.getHome, async ({ principal }) =>
  ok(await homeSections(principal?.accountId)),
);
