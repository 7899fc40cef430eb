import type { SubscriptionStatus } from '../catalog/model.ts';
import { DeleteCommand, PutCommand } from '../db/document.ts';
import { batchGet } from '../db/batch.ts';
import { db } from '../db/client.ts';
import { tableName } from '../db/table.ts';

/**
 * A viewer's relationship with a creator: following and subscription records.
 * Key design: PK `ACCOUNT#<account id>`, SK `FOLLOW#<creator id>` / `SUB#<creator id>`.
 * Subscription `status` values: `active`, `cancelled` (still valid until `renewal_date`), `expired`.
 * Both are source items of the creator's counters (shared/projection/counters.ts): a follow counts
 * while it exists, a subscription while its status is `active`.
 */

export interface SubscriptionRecord {
  account_id: string;
  creator_id: string;
  status: SubscriptionStatus;
  subscribed_at: string;
  renewal_date: string;
}

export const followKey = (accountId: string, creatorId: string) => ({
  PK: `ACCOUNT#${accountId}`,
  SK: `FOLLOW#${creatorId}`,
});
export const subscriptionKey = (accountId: string, creatorId: string) => ({
  PK: `ACCOUNT#${accountId}`,
  SK: `SUB#${creatorId}`,
});

/** Items recording that `accountId` follows `creatorId`. */
export const followItem = (accountId: string, creatorId: string, at: string) => ({
  ...followKey(accountId, creatorId),
  entity: 'follow',
  account_id: accountId,
  creator_id: creatorId,
  followed_at: at,
});

/** The item of one subscription record. */
export const subscriptionItem = (record: SubscriptionRecord) => ({
  ...subscriptionKey(record.account_id, record.creator_id),
  entity: 'subscription',
  ...record,
});

export interface Relationship {
  is_following: boolean;
  subscription: SubscriptionRecord | null;
}

/** True while a subscription grants access at `now` (active, or cancelled but paid up). */
export const grantsAccess = (subscription: SubscriptionRecord | null, now: Date): boolean =>
  subscription !== null && subscription.status !== 'expired' && new Date(subscription.renewal_date) > now;

/** Follow and subscription state of an account toward a creator: one BatchGetItem. */
export const getRelationship = async (
  accountId: string | undefined,
  creatorId: string,
): Promise<Relationship> => {
  if (!accountId) return { is_following: false, subscription: null };
  const items = await batchGet([followKey(accountId, creatorId), subscriptionKey(accountId, creatorId)]);
  const sub = items.find((item) => String(item.SK).startsWith('SUB#'));
  return {
    is_following: items.some((item) => String(item.SK).startsWith('FOLLOW#')),
    subscription: sub
      ? {
          account_id: String(sub.account_id),
          creator_id: String(sub.creator_id),
          status: sub.status as SubscriptionStatus,
          subscribed_at: String(sub.subscribed_at),
          renewal_date: String(sub.renewal_date),
        }
      : null,
  };
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

/** Writes a subscription record. */
export const putSubscription = async (record: SubscriptionRecord) => {
  await db.send(new PutCommand({ TableName: tableName(), Item: subscriptionItem(record) }));
};
