import { httpHandler } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { follow } from '../../shared/live/follows.ts';
import { creatorPath } from '../../shared/live/schemas.ts';

export const handler = httpHandler({ path: creatorPath }, async ({ path, caller, now }) =>
  ok(await follow(path.id, caller().accountId, now)),
);
