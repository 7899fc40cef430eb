import { ConflictError } from '../errors/errors.ts';
import { requireCreator } from './creator-repository.ts';
import { deleteFollow, putFollow } from './relationship-repository.ts';

/**
 * Following (designed; the spec shows only its state): free and separate from paying. Paid
 * subscriptions are entitlements bought through checkout (shared/payments, docs/payments.md).
 */

/** A caller's follow state of a creator (the FollowState response schema, functions/live/contracts.ts). */
export interface FollowState {
  creator_id: string;
  is_following: boolean;
}

/**
 * 409 when the caller is the creator: a creator who signed up has their account's id
 * (shared/creators/studio-creator.ts), compared after the id or handle resolves. Like banning
 * yourself from chat (shared/chat/moderation.ts), a request the caller's own state refuses.
 */
export const follow = async (creatorId: string, accountId: string, now: Date): Promise<FollowState> => {
  const creator = await requireCreator(creatorId);
  if (creator.id === accountId) throw new ConflictError('You cannot follow yourself');
  await putFollow(accountId, creator.id, now);
  return { creator_id: creator.id, is_following: true };
};

export const unfollow = async (creatorId: string, accountId: string): Promise<FollowState> => {
  const creator = await requireCreator(creatorId);
  await deleteFollow(accountId, creator.id);
  return { creator_id: creator.id, is_following: false };
};
