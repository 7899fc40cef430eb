import { DeleteCommand, GetCommand, PutCommand } from '../db/document.ts';
import { db } from '../db/client.ts';
import { tableName } from '../db/table.ts';
import { type EntitlementRecord, entitlementsOf } from '../entitlements/entitlement-repository.ts';

/**
 * A viewer's relationship with a creator: following (this module's item) and what the viewer's
 * entitlements to the creator's content are (shared/entitlements, the paywall's one source).
 * Key design of a follow: PK `ACCOUNT#<account id>`, SK `FOLLOW#<creator id>`. A follow is a
 * source item of the creator's follower counter (shared/projection/counters.ts); following is free
 * and separate from paying.
 */

export const followKey = (accountId: string, creatorId: string) => ({
  PK: `ACCOUNT#${accountId}`,
  SK: `FOLLOW#${creatorId}`,
});

/** Items recording that `accountId` follows `creatorId`. */
export const followItem = (accountId: string, creatorId: string, at: string) => ({
  ...followKey(accountId, creatorId),
  entity: 'follow',
  account_id: accountId,
  creator_id: creatorId,
  followed_at: at,
});

export interface Relationship {
  is_following: boolean;
  /** The viewer's subscription to the creator, whatever its state. */
  subscription: EntitlementRecord | undefined;
  /** Every entitlement of the viewer to the creator's content (subscription and purchases). */
  entitlements: EntitlementRecord[];
}

/** Follow state and entitlements of an account toward a creator: a GetItem and a Query, in parallel. */
export const getRelationship = async (
  accountId: string | undefined,
  creatorId: string,
): Promise<Relationship> => {
  if (!accountId) return { is_following: false, subscription: undefined, entitlements: [] };
  const [follow, entitlements] = await Promise.all([
    db.send(new GetCommand({ TableName: tableName(), Key: followKey(accountId, creatorId) })),
    entitlementsOf(accountId, creatorId),
  ]);
  return {
    is_following: follow.Item !== undefined,
    subscription: entitlements.find((e) => e.kind === 'subscription'),
    entitlements,
  };
};

/** When `accountId` followed `creatorId` (ISO 8601), or null when they do not follow. */
export const followedAt = async (accountId: string, creatorId: string): Promise<string | null> => {
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName(), Key: followKey(accountId, creatorId) }),
  );
  return Item ? String(Item.followed_at) : null;
};

/** Records a follow (idempotent). */
export const putFollow = async (accountId: string, creatorId: string, at: Date) => {
  await db.send(
    new PutCommand({ TableName: tableName(), Item: followItem(accountId, creatorId, at.toISOString()) }),
  );
};

/** Removes a follow (idempotent). */
export const deleteFollow = async (accountId: string, creatorId: string) => {
  await db.send(new DeleteCommand({ TableName: tableName(), Key: followKey(accountId, creatorId) }));
};
