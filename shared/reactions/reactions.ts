import { ConflictError, NotFoundError } from '../errors/errors.ts';
import { getEpisode, getShow } from '../shows/show-repository.ts';
import { addReaction, countReactions, reactionsOf, removeReaction } from './reaction-repository.ts';
import {
  MAX_EMOJI_PER_TARGET,
  type Reaction,
  type ReactionInput,
  type ReactionSummary,
  TOO_MANY_EMOJI,
} from './schemas.ts';

/**
 * Does the content a reaction targets exist? `VIDEO` is an episode and `SERIES` a show, both ours
 * (as reports check them); `POST` and `COMMENT` live in no table of this back end, so any id of
 * theirs is accepted (docs/contracts.md "Reaction targets").
 */
const targetExists = async ({ targetType, targetId }: ReactionInput): Promise<boolean> => {
  if (targetType === 'VIDEO') return (await getEpisode(targetId)) !== undefined;
  if (targetType === 'SERIES') return (await getShow(targetId)) !== undefined;
  return true;
};

/**
 * `POST /v3/reactions`: idempotent. `created` is false when the caller already had this reaction
 * (the count is unchanged then). 404 for a video or series that does not exist; 409 for a new
 * emoji past MAX_EMOJI_PER_TARGET of the caller's on it (concurrent adds may pass it by a few).
 */
export const react = async (
  accountId: string,
  input: ReactionInput,
  now: Date,
): Promise<{ created: boolean; reaction: Reaction }> => {
  // Two independent reads side by side: one round trip before the write, not two.
  const [exists, mine] = await Promise.all([
    targetExists(input),
    reactionsOf(accountId, input.targetType, input.targetId),
  ]);
  if (!exists) throw new NotFoundError(`${input.targetType === 'VIDEO' ? 'Video' : 'Series'} not found`);
  if (!mine.includes(input.emoji) && mine.length >= MAX_EMOJI_PER_TARGET)
    throw new ConflictError(TOO_MANY_EMOJI);
  const created = await addReaction({ accountId, ...input }, now);
  return { created, reaction: { ...input, reacted: true } };
};

/** `DELETE /v3/reactions`: removes only the caller's own reaction; idempotent. */
export const unreact = async (accountId: string, input: ReactionInput): Promise<void> => {
  await removeReaction({ accountId, ...input });
};

/** `GET /v3/reactions/summary/{targetType}/{targetId}`: counts by emoji, most used first. */
export const reactionSummary = async (
  accountId: string,
  targetType: ReactionInput['targetType'],
  targetId: string,
): Promise<ReactionSummary> => {
  const [counts, mine] = await Promise.all([
    countReactions(targetType, targetId),
    reactionsOf(accountId, targetType, targetId),
  ]);
  const summary = [...counts]
    .map(([emoji, count]) => ({ emoji, count }))
    .sort((a, b) => b.count - a.count || a.emoji.localeCompare(b.emoji));
  return {
    targetType,
    targetId,
    summary,
    total: summary.reduce((sum, entry) => sum + entry.count, 0),
    userReactions: mine,
  };
};
