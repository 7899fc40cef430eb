import { endpoint } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { subscribe } from '../../shared/live/follows.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.subscribeCreator, async ({ path, caller, now }) =>
  ok(await subscribe(path.id, caller().accountId, now)),
);
