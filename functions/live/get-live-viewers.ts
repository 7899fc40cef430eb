import { httpHandler } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { liveViewers } from '../../shared/live/live.ts';
import { creatorPath } from '../../shared/live/schemas.ts';

export const handler = httpHandler({ path: creatorPath }, async ({ path, now }) =>
  ok(await liveViewers(path.id, now)),
);
