import type { TierId } from '../catalog/model.ts';
import {
  type StoredCreator,
  setCreatorEditorial,
  setCreatorSuspension,
} from '../creators/creator-repository.ts';
import { setCatalogueSuspended } from '../shows/show-repository.ts';
import { closeChatRoom, ensureChatRoom } from '../chat/room-writes.ts';
import { getAccount } from '../identity/account-repository.ts';

/**
 * An operator's writes on a creator (`npm run operator`, scripts/operator.ts): the editorial
 * fields a creator cannot set (featured, hot, tier) and suspension. Each is one named write of
 * the creator entity (shared/creators/creator-repository.ts) that adds 1 to its `version`
 * (the projector's views compare versions, docs/projections.md). Reads and the projector hide a
 * creator while `suspended_at` is set, and its shows and episodes while they carry
 * `creator_suspended` (set and removed with the suspension: `setCatalogueSuspended`, one
 * conditional write per item, so a crash half-way is repaired by running the command again).
 */

/** The creator does not exist: the command reports it and exits 1. */
export class UnknownCreatorError extends Error {
  constructor(readonly creatorId: string) {
    super(`no creator has the id "${creatorId}"`);
    this.name = 'UnknownCreatorError';
  }
}

/** The creator's account is deleted: hidden until its purge, and no operator brings it back. */
export class DeletedCreatorError extends Error {
  constructor(readonly creatorId: string) {
    super(`the creator "${creatorId}" deleted its account: it stays hidden until the purge`);
    this.name = 'DeletedCreatorError';
  }
}

export interface EditorialFlags {
  is_featured?: boolean;
  is_hot?: boolean;
  tier?: TierId;
}

/** What an operator write leaves on the creator. */
export type OperatedCreator = StoredCreator;

/** The creator after an operator write, or UnknownCreatorError when there is none. */
const found = async (creatorId: string, written: Promise<StoredCreator | undefined>) => {
  const creator = await written;
  if (!creator) throw new UnknownCreatorError(creatorId);
  return creator;
};

/** Sets any of `is_featured`, `is_hot`, `tier` (at least one). */
export const setEditorialFlags = (creatorId: string, flags: EditorialFlags): Promise<OperatedCreator> => {
  if (Object.values(flags).every((value) => value === undefined))
    throw new RangeError('give at least one of --featured, --hot, --tier');
  return found(creatorId, setCreatorEditorial(creatorId, flags));
};

/**
 * Suspends the creator: `suspended_at` = `now` (ISO), and its shows and episodes are hidden too;
 * its chat room is closed (deleted on IVS Chat: every connection ends; docs/chat.md "Rooms").
 * Suspending again moves the instant.
 */
export const suspendCreator = async (creatorId: string, now: Date): Promise<OperatedCreator> => {
  const creator = await found(creatorId, setCreatorSuspension(creatorId, { at: now }));
  await setCatalogueSuspended(creatorId, { suspended: true });
  await closeChatRoom(creatorId);
  return creator;
};

/**
 * Lifts a suspension (removes `suspended_at`; a creator that was not suspended stays as it was,
 * version + 1); a channel gets a new chat room (the old one was deleted; settings, moderators
 * and bans are the creator's and carry over). A creator whose account is deleted is hidden by its
 * deletion until the purge (DeletedCreatorError).
 */
export const unsuspendCreator = async (creatorId: string): Promise<OperatedCreator> => {
  if ((await getAccount(creatorId))?.deleted_at) throw new DeletedCreatorError(creatorId);
  const creator = await found(creatorId, setCreatorSuspension(creatorId, { at: undefined }));
  await setCatalogueSuspended(creatorId, { suspended: false });
  await ensureChatRoom(creatorId);
  return creator;
};
