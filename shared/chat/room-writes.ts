import { allRankedIds } from '../catalog/ranked-list.ts';
import { CREATOR_LISTS } from '../creators/creator-ranking.ts';
import {
  clearCreatorChatRoom,
  getStoredCreator,
  setCreatorChatRoom,
} from '../creators/creator-repository.ts';
import { deleteRoomLookup, putRoomLookup } from './chat-repository.ts';
import { createRoom, deleteRoom } from './rooms.ts';

/**
 * An operator's writes on chat rooms (`npm run operator -- chat-room`, `suspend`, `unsuspend`;
 * docs/chat.md "Rooms"): the room of a channel made before chat, and closing a suspended
 * creator's room (its connections end, no token can be had for it) and opening a new one when the
 * suspension is lifted. Operator code: never on a request path.
 */

export type RoomChange = 'created' | 'exists' | 'closed' | 'none' | 'no-channel' | 'suspended';

/** The creator's channel, and whether the creator is suspended (a consistent read). */
const channelOf = async (creatorId: string) => {
  const creator = await getStoredCreator(creatorId);
  return { channel: creator?.ivs, suspended: creator?.suspended_at !== undefined };
};

/**
 * Gives the creator's channel its room when it has none: the room is made, then set on the
 * creator on condition it still has none (a concurrent run's room wins; this one's is deleted).
 * A suspended creator gets none: its room opens when the suspension is lifted.
 */
export const ensureChatRoom = async (creatorId: string): Promise<RoomChange> => {
  const { channel, suspended } = await channelOf(creatorId);
  if (!channel) return 'no-channel';
  if (suspended) return 'suspended';
  if (channel.chat_room_arn) return 'exists';
  const roomArn = await createRoom(creatorId);
  // A concurrent run's room wins; this one's is deleted (also when the write fails).
  const set = await setCreatorChatRoom(creatorId, roomArn).catch(async (error) => {
    await deleteRoom(roomArn);
    throw error;
  });
  if (!set) {
    await deleteRoom(roomArn);
    return 'exists';
  }
  await putRoomLookup(roomArn, creatorId);
  return 'created';
};

/** Closes the creator's room: deleted on IVS Chat (every connection ends), then forgotten. */
export const closeChatRoom = async (creatorId: string): Promise<RoomChange> => {
  const roomArn = (await channelOf(creatorId)).channel?.chat_room_arn;
  if (!roomArn) return 'none';
  await deleteRoom(roomArn);
  // false: a concurrent run already gave the channel another room; this one is gone either way.
  await clearCreatorChatRoom(creatorId, roomArn);
  await deleteRoomLookup(roomArn);
  return 'closed';
};

/**
 * The one-off backfill: a room for every channel that has none. It visits the `channels` list
 * (every public creator, in channel-number order; a suspended creator is in none, and is refused
 * by ensureChatRoom if the list has not caught up), one Query page at a time, no Scan; rooms are
 * made one after another (IVS Chat allows 5 CreateRoom a second; the client retries throttling).
 * `onCreator` hears every channel whose room changed or was refused.
 */
export const backfillChatRooms = async (
  onCreator: (creatorId: string, change: RoomChange) => void = () => {},
): Promise<number> => {
  let made = 0;
  for await (const creatorId of allRankedIds(CREATOR_LISTS.channels)) {
    const change = await ensureChatRoom(creatorId);
    if (change === 'created') made++;
    if (change !== 'exists' && change !== 'no-channel') onCreator(creatorId, change);
  }
  return made;
};
