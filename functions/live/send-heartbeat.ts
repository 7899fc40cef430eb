import { endpoint } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { heartbeat } from '../../shared/watch/watch-playback.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.sendHeartbeat, async ({ path, query, caller, now }) =>
  ok(await heartbeat(path.id, caller().accountId, query.session_id, now)),
);
