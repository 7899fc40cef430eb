import { httpHandler } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { reactionSummary } from '../../shared/reactions/reactions.ts';
import { reactionSummaryPath } from '../../shared/reactions/schemas.ts';

export const handler = httpHandler({ path: reactionSummaryPath }, async ({ path, caller }) =>
  ok(await reactionSummary(caller().accountId, path.targetType, path.targetId)),
);
