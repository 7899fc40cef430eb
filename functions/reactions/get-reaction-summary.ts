import { endpoint } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { reactionSummary } from '../../shared/reactions/reactions.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.getReactionSummary, async ({ path, caller }) =>
  ok(await reactionSummary(caller().accountId, path.targetType, path.targetId)),
);
