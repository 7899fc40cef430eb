import { httpHandler } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { startWatching } from '../../shared/live/live.ts';
import { creatorPath, openWatchBody } from '../../shared/live/schemas.ts';

export const handler = httpHandler(
  { path: creatorPath, body: openWatchBody },
  async ({ path, body, caller, now }) => ok(await startWatching(path.id, caller().accountId, body, now)),
);
