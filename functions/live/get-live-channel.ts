import { httpHandler } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { liveChannel } from '../../shared/live/live.ts';
import { creatorPath } from '../../shared/live/schemas.ts';

export const handler = httpHandler({ path: creatorPath }, async ({ path, principal, now }) =>
  ok(await liveChannel(path.id, principal?.accountId, now)),
);
