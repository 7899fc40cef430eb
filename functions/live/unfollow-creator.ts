import { httpHandler } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { unfollow } from '../../shared/live/follows.ts';
import { creatorPath } from '../../shared/live/schemas.ts';

export const handler = httpHandler({ path: creatorPath }, async ({ path, caller }) =>
  ok(await unfollow(path.id, caller().accountId)),
);
