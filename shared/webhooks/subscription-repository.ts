import { createHash } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, TransactWriteCommand } from '../db/document.ts';
import { db } from '../db/client.ts';
import { queryAll } from '../db/query.ts';
import { tableName } from '../db/table.ts';
import type { EventType } from '../events/envelope.ts';
import type { SubscriptionStatus } from './schemas.ts';
import { cancellationCodes, writeIf } from '../db/transaction.ts';

/**
 * Webhook subscriptions and partner approvals in the single table (docs/webhooks.md,
 * "Data model"):
 * - subscription: PK `WEBHOOK#<id>`, SK `SUBSCRIPTION`; GSI1 `WEBHOOK_OWNER#<account>` /
 *   `<created_at>#<id>` (an owner's list, newest first); GSI2 `WEBHOOK_MATCH#<type>#<creator>` /
 *   `<id>`, present ONLY while the subscription is `enabled` (a sparse index: the fan-out's one
 *   Query finds exactly the subscriptions to deliver to, never a Scan or a filter).
 * - partner approval: PK `WEBHOOK_PARTNER#<account>`, SK `APPROVAL` (set by an operator).
 * - uniqueness: PK `WEBHOOK_UNIQUE#<SHA-256 of owner, type, version, creator, callback>`, SK
 *   `UNIQUE`; and the owner's count: PK `WEBHOOK_OWNER_COUNT#<account>`, SK `COUNT`
 *   (`subscriptions`). Both change in the transaction that writes or deletes a subscription.
 * No secret is stored: a subscription's secrets derive from its id and generation in KMS
 * (shared/webhooks/secrets.ts).
 */

export interface SubscriptionRecord {
  id: string;
  owner_id: string;
  type: EventType;
  version: string;
  creator_id: string;
  callback: string;
  status: SubscriptionStatus;
  created_at: string;
  status_changed_at: string;
  /** The current secret's generation (1 at creation, +1 per rotation). */
  secret_generation: number;
  /** During a rotation: until when generation - 1 still signs (ISO 8601). */
  previous_secret_expires_at?: string;
}

export interface PartnerApproval {
  account_id: string;
  approved_at: string;
  approved_by: string;
}

const key = (id: string) => ({ PK: `WEBHOOK#${id}`, SK: 'SUBSCRIPTION' });
const partnerKey = (accountId: string) => ({ PK: `WEBHOOK_PARTNER#${accountId}`, SK: 'APPROVAL' });
const ownerIndex = (owner: string) => `WEBHOOK_OWNER#${owner}`;
/** One per owner, type, version, creator and callback (hashed: a callback is up to 2,048 characters). */
const uniqueKey = (
  r: Pick<SubscriptionRecord, 'owner_id' | 'type' | 'version' | 'creator_id' | 'callback'>,
) => ({
  PK: `WEBHOOK_UNIQUE#${createHash('sha256')
    .update(JSON.stringify([r.owner_id, r.type, r.version, r.creator_id, r.callback]))
    .digest('base64url')}`,
  SK: 'UNIQUE',
});
/** The owner's count of subscriptions. */
const countKey = (owner: string) => ({ PK: `WEBHOOK_OWNER_COUNT#${owner}`, SK: 'COUNT' });
const matchIndex = (type: string, creatorId: string) => `WEBHOOK_MATCH#${type}#${creatorId}`;
const KEY_ATTRIBUTES = ['PK', 'SK', 'GSI1PK', 'GSI1SK', 'GSI2PK', 'GSI2SK', 'entity'] as const;

const recordOf = (item: Record<string, unknown>): SubscriptionRecord => {
  const record = { ...item };
  for (const name of KEY_ATTRIBUTES) delete record[name];
  return record as unknown as SubscriptionRecord;
};

/** Why a new subscription was not written. */
export type PutRefusal = 'duplicate' | 'limit';

/**
 * Writes a new subscription (never overwrites one) in one transaction with its two guards, so
 * concurrent creates cannot pass them together (issue 33): a uniqueness item per owner, type,
 * version, creator and callback (`duplicate` when it exists), and the owner's count of
 * subscriptions, raised on condition it is below `max` (`limit` otherwise). Resolves undefined
 * when written.
 */
export const putSubscription = async (
  record: SubscriptionRecord,
  max: number,
): Promise<PutRefusal | undefined> => {
  try {
    await db.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: tableName(),
              Item: {
                ...key(record.id),
                GSI1PK: ownerIndex(record.owner_id),
                GSI1SK: `${record.created_at}#${record.id}`,
                ...(record.status === 'enabled'
                  ? { GSI2PK: matchIndex(record.type, record.creator_id), GSI2SK: record.id }
                  : {}),
                entity: 'webhook_subscription',
                ...record,
              },
              ConditionExpression: 'attribute_not_exists(PK)',
            },
          },
          {
            Put: {
              TableName: tableName(),
              Item: {
                ...uniqueKey(record),
                entity: 'webhook_subscription_unique',
                subscription_id: record.id,
              },
              ConditionExpression: 'attribute_not_exists(PK)',
            },
          },
          {
            Update: {
              TableName: tableName(),
              Key: countKey(record.owner_id),
              UpdateExpression: 'SET entity = :entity ADD subscriptions :one',
              ConditionExpression: 'attribute_not_exists(subscriptions) OR subscriptions < :max',
              ExpressionAttributeValues: { ':entity': 'webhook_subscription_count', ':one': 1, ':max': max },
            },
          },
        ],
      }),
    );
    return undefined;
  } catch (error) {
    const codes = cancellationCodes(error);
    if (!codes) throw error;
    if (codes[1] === 'ConditionalCheckFailed') return 'duplicate';
    if (codes[2] === 'ConditionalCheckFailed') return 'limit';
    throw error;
  }
};

export const getSubscription = async (id: string): Promise<SubscriptionRecord | undefined> => {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: key(id) }));
  return Item ? recordOf(Item) : undefined;
};

/** Every subscription of `ownerId`, newest first (an owner has at most MAX_PER_OWNER). */
export const subscriptionsOf = async (ownerId: string): Promise<SubscriptionRecord[]> =>
  (
    await queryAll({
      IndexName: 'GSI1',
      KeyConditionExpression: 'GSI1PK = :pk',
      ExpressionAttributeValues: { ':pk': ownerIndex(ownerId) },
      ScanIndexForward: false,
    })
  ).map(recordOf);

/** The enabled subscriptions to `type` events of `creatorId` (one Query on the sparse GSI2). */
export const enabledSubscriptionsFor = async (
  type: string,
  creatorId: string,
): Promise<SubscriptionRecord[]> =>
  (
    await queryAll({
      IndexName: 'GSI2',
      KeyConditionExpression: 'GSI2PK = :pk',
      ExpressionAttributeValues: { ':pk': matchIndex(type, creatorId) },
    })
  ).map(recordOf);

/**
 * Moves a subscription to `status` if it is in one of `from` (so a late verification cannot
 * re-enable a revoked one); enters or leaves the delivery index with it. False when the
 * subscription is gone or was not in `from`.
 */
export const changeStatus = async (
  record: Pick<SubscriptionRecord, 'id' | 'type' | 'creator_id'>,
  status: SubscriptionStatus,
  from: readonly SubscriptionStatus[],
  now: Date,
): Promise<boolean> => {
  const names = { '#status': 'status' };
  const values: Record<string, unknown> = {
    ':status': status,
    ':at': now.toISOString(),
    ...Object.fromEntries(from.map((s, i) => [`:from${i}`, s])),
  };
  const index =
    status === 'enabled'
      ? { set: ', GSI2PK = :match, GSI2SK = :id', remove: '' }
      : { set: '', remove: ' REMOVE GSI2PK, GSI2SK' };
  if (status === 'enabled') {
    values[':match'] = matchIndex(record.type, record.creator_id);
    values[':id'] = record.id;
  }
  const { written } = await writeIf({
    Update: {
      Key: key(record.id),
      UpdateExpression: `SET #status = :status, status_changed_at = :at${index.set}${index.remove}`,
      ConditionExpression: `attribute_exists(PK) AND #status IN (${from.map((_, i) => `:from${i}`).join(', ')})`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  });
  return written;
};

/**
 * Deletes `ownerId`'s subscription `id` with its uniqueness item and one off the owner's count, in
 * one transaction; false when there is none of theirs.
 */
export const deleteSubscription = async (id: string, ownerId: string): Promise<boolean> => {
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName(), Key: key(id), ConsistentRead: true }),
  );
  const record = Item ? recordOf(Item) : undefined;
  if (!record || record.owner_id !== ownerId) return false;
  try {
    await db.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Delete: {
              TableName: tableName(),
              Key: key(id),
              ConditionExpression: 'owner_id = :owner',
              ExpressionAttributeValues: { ':owner': ownerId },
            },
          },
          { Delete: { TableName: tableName(), Key: uniqueKey(record) } },
          {
            Update: {
              TableName: tableName(),
              Key: countKey(ownerId),
              UpdateExpression: 'ADD subscriptions :minus',
              ConditionExpression: 'subscriptions > :zero',
              ExpressionAttributeValues: { ':minus': -1, ':zero': 0 },
            },
          },
        ],
      }),
    );
    return true;
  } catch (error) {
    const codes = cancellationCodes(error);
    if (codes?.[0] === 'ConditionalCheckFailed') return false;
    // A subscription written before the count existed: delete it without touching the count.
    if (codes?.[2] === 'ConditionalCheckFailed') {
      await db.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Delete: {
                TableName: tableName(),
                Key: key(id),
                ConditionExpression: 'owner_id = :owner',
                ExpressionAttributeValues: { ':owner': ownerId },
              },
            },
            { Delete: { TableName: tableName(), Key: uniqueKey(record) } },
          ],
        }),
      );
      return true;
    }
    throw error;
  }
};

/**
 * Starts a secret rotation of `ownerId`'s subscription `id`: the next generation becomes
 * current, the previous one signs too until `previousExpiresAt`; only if the last rotation's
 * `previous_secret_expires_at` is at most `lastExpiresBy` (so of concurrent rotations exactly one
 * is written). The record after, `not-found` when there is none of theirs, `too-soon` when the
 * last rotation is more recent.
 */
export const advanceSecret = async (
  id: string,
  ownerId: string,
  previousExpiresAt: Date,
  lastExpiresBy: Date,
): Promise<SubscriptionRecord | 'not-found' | 'too-soon'> => {
  const outcome = await writeIf({
    Update: {
      Key: key(id),
      UpdateExpression:
        'SET secret_generation = secret_generation + :one, previous_secret_expires_at = :until',
      // ISO 8601 instants of one format (toISOString) compare as strings.
      ConditionExpression:
        'owner_id = :owner AND (attribute_not_exists(previous_secret_expires_at) OR previous_secret_expires_at <= :last)',
      ExpressionAttributeValues: {
        ':one': 1,
        ':until': previousExpiresAt.toISOString(),
        ':owner': ownerId,
        ':last': lastExpiresBy.toISOString(),
      },
      ReturnValues: 'ALL_NEW',
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  });
  if (outcome.written) return outcome.attributes ? recordOf(outcome.attributes) : 'not-found';
  return outcome.item?.owner_id === ownerId ? 'too-soon' : 'not-found';
};

export const getPartnerApproval = async (accountId: string): Promise<PartnerApproval | undefined> => {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: partnerKey(accountId) }));
  return Item
    ? { account_id: accountId, approved_at: String(Item.approved_at), approved_by: String(Item.approved_by) }
    : undefined;
};

/** Operator: approves `accountId` as a partner (any creator's public events). */
export const putPartnerApproval = async (approval: PartnerApproval): Promise<void> => {
  await db.send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...partnerKey(approval.account_id), entity: 'webhook_partner', ...approval },
    }),
  );
};

/** Operator: withdraws the approval; true when there was one. */
export const deletePartnerApproval = async (accountId: string): Promise<boolean> => {
  const { Attributes } = await db.send(
    new DeleteCommand({ TableName: tableName(), Key: partnerKey(accountId), ReturnValues: 'ALL_OLD' }),
  );
  return Attributes !== undefined;
};

/** Deletes an owner's subscription count and partner approval (the account's deletion, after its subscriptions). */
export const deleteOwnerRecords = async (ownerId: string): Promise<void> => {
  await Promise.all([
    db.send(new DeleteCommand({ TableName: tableName(), Key: countKey(ownerId) })),
    db.send(new DeleteCommand({ TableName: tableName(), Key: partnerKey(ownerId) })),
  ]);
};
