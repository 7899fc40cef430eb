import { NOT_A_CREATOR_YET } from '../creators/messages.ts';
import { getCreator } from '../creators/creator-repository.ts';
import { ForbiddenError, NotFoundError } from '../errors/errors.ts';
import { getBan, isModerator } from './chat-repository.ts';
import { isBanned } from './policy.ts';

/**
 * Which channel a studio chat call acts on, and as whom (docs/chat.md "Moderation"): apart from the
 * moderation actions (./moderation.ts), so a route that only reads (`GET /studio/chat/settings`)
 * loads no IVS Chat client.
 */

export interface StudioChat {
  creatorId: string;
  /** The caller. */
  by: string;
  role: 'creator' | 'moderator';
  /** The channel's room, when it has one. */
  roomArn: string | undefined;
}

/**
 * The channel a studio chat call acts on: the caller's own (they must be a creator), or, with
 * `channel`, one they moderate (403 otherwise, whether or not the channel exists: who moderates
 * what is not revealed). A moderator the channel banned moderates nothing (403), as a banned
 * moderator gets no chat token: the ban comes before the role.
 */
export const studioChat = async (
  callerId: string,
  channel: string | undefined,
  now: Date,
): Promise<StudioChat> => {
  const creatorId = channel ?? callerId;
  if (creatorId !== callerId) {
    const [moderates, ban] = await Promise.all([
      isModerator(creatorId, callerId),
      getBan(creatorId, callerId),
    ]);
    if (!moderates) throw new ForbiddenError('You do not moderate this channel');
    if (isBanned(ban, now)) throw new ForbiddenError('You are banned from this chat');
  }
  const creator = await getCreator(creatorId);
  if (!creator || creator.id !== creatorId)
    throw creatorId === callerId
      ? new ForbiddenError(NOT_A_CREATOR_YET)
      : new NotFoundError('Creator not found');
  return {
    creatorId,
    by: callerId,
    role: creatorId === callerId ? 'creator' : 'moderator',
    roomArn: creator.ivs?.chat_room_arn,
  };
};
