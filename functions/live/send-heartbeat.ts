import { httpHandler } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { heartbeat } from '../../shared/live/live.ts';
import { creatorPath, sessionQuery } from '../../shared/live/schemas.ts';

export const handler = httpHandler(
  { path: creatorPath, query: sessionQuery },
  async ({ path, query, caller, now }) =>
    ok(await heartbeat(path.id, caller().accountId, query.session_id, now)),
);
