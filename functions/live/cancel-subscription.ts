import { endpoint } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { unsubscribe } from '../../shared/live/follows.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.cancelSubscription, async ({ path, caller, now }) =>
  ok(await unsubscribe(path.id, caller().accountId, now)),
);
