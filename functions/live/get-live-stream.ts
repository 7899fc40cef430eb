import { httpHandler } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { liveStream } from '../../shared/live/live.ts';
import { creatorPath, streamQuery } from '../../shared/live/schemas.ts';

export const handler = httpHandler(
  { path: creatorPath, query: streamQuery },
  async ({ path, query, caller, now }) => ok(await liveStream(path.id, caller().accountId, query, now)),
);
