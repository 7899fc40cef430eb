import { httpHandler } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { liveMetadata } from '../../shared/live/live.ts';
import { creatorPath } from '../../shared/live/schemas.ts';

export const handler = httpHandler({ path: creatorPath }, async ({ path, now }) =>
  ok(await liveMetadata(path.id, now)),
);
