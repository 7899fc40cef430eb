import { httpHandler } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { changeQuality } from '../../shared/live/live.ts';
import { changeWatchBody, creatorPath } from '../../shared/live/schemas.ts';

export const handler = httpHandler(
  { path: creatorPath, body: changeWatchBody },
  async ({ path, body, caller, now }) => ok(await changeQuality(path.id, caller().accountId, body, now)),
);
