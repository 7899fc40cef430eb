import { endpoint } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { stopWatching } from '../../shared/watch/watch-sessions.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.endWatchSession, async ({ path, query, caller, now }) => {
  const { message, data } = await stopWatching(path.id, caller().accountId, query.session_id, now);
  return ok(data, { message });
});
