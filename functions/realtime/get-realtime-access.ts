import { endpoint } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { realtimeAccess } from '../../shared/realtime/realtime.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.getRealtimeAccess, async ({ path, principal, now }) =>
  ok(await realtimeAccess(path.id, principal?.accountId, now)),
);
