import { listContinueWatching } from '../../shared/analytics/continue-watching.ts';
import { endpoint } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.listContinueWatching, async ({ query, caller }) =>
  ok({ items: await listContinueWatching(caller().accountId, query.limit) }),
);
