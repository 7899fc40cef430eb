import { db } from '../db/client.ts';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '../db/document.ts';
import { queryAll } from '../db/query.ts';
import { recordOf } from '../db/record.ts';
import { tableName } from '../db/table.ts';
import { writeIf } from '../db/transaction.ts';
import { updateOf, withCondition } from '../db/update.ts';

/**
 * Refresh-token families (one sign-in each; the token rules are shared/identity/refresh-tokens.ts):
 * key design, named reads and named writes.
 * - family: PK `REFRESH#<family>`, SK `FAMILY` → the RefreshFamily below; TTL at its expiry.
 *   GSI1PK `SESSIONS#<account>`, GSI1SK `<created_at>#<family>`: an account's families (the
 *   session list, the account's export and its purge).
 */

/** A refresh-token family as stored. */
export interface RefreshFamily {
  /** The family id (a UUID): the first part of its refresh tokens. */
  family: string;
  account_id: string;
  /** The SHA-256 (base64url) of the current secret: the only one that refreshes. */
  current: string;
  revoked: boolean;
  /** The device label of the sign-in. */
  device: string;
  created_at: string;
  last_used_at: string;
  /** Epoch seconds of the last primary authentication (families from before it: none). */
  auth_time?: number;
  /** The sign-in passed the account's second factor. */
  second_factor?: boolean;
  /** When the family expires (epoch seconds; the TTL attribute). */
  expires_at_epoch: number;
}

const PREFIX = 'REFRESH#';
const familyKey = (family: string) => ({ PK: `${PREFIX}${family}`, SK: 'FAMILY' });
const sessionsOf = (accountId: string) => `SESSIONS#${accountId}`;

const familyOf = (item: Record<string, unknown>): RefreshFamily => ({
  ...recordOf<Omit<RefreshFamily, 'family'>>(item),
  family: String(item.PK).slice(PREFIX.length),
});

/** Stores a new family (a sign-in). */
export const putRefreshFamily = async (family: RefreshFamily): Promise<void> => {
  const { family: id, ...fields } = family;
  await db.send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...familyKey(id),
        entity: 'refresh_family',
        GSI1PK: sessionsOf(family.account_id),
        GSI1SK: `${family.created_at}#${id}`,
        ...fields,
      },
    }),
  );
};

/** One family, read consistently (a refresh must see the last rotation). */
export const getRefreshFamily = async (family: string): Promise<RefreshFamily | undefined> => {
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName(), Key: familyKey(family), ConsistentRead: true }),
  );
  return Item ? familyOf(Item) : undefined;
};

/** Revokes a family, whoever's it is (reuse detected). */
export const setRefreshFamilyRevoked = async (family: string): Promise<void> => {
  await db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: familyKey(family),
      ...updateOf({ set: { revoked: true } }),
    }),
  );
};

/**
 * Swaps the family's current secret hash `from` for `to` and records its use at `at`, on
 * condition `from` is still current and the family is not revoked; false otherwise (nothing
 * written: another use of the same token won).
 */
export const rotateRefreshSecret = async (
  family: string,
  swap: { from: string; to: string; at: Date },
): Promise<boolean> =>
  (
    await writeIf({
      Update: {
        Key: familyKey(family),
        ...withCondition(updateOf({ set: { current: swap.to, last_used_at: swap.at.toISOString() } }), {
          expression: '#c0 = :c0 AND revoked = :c1',
          names: { '#c0': 'current' },
          values: { ':c0': swap.from, ':c1': false },
        }),
      },
    })
  ).written;

/** Revokes a family of `accountId`; false when it does not exist or is another account's. */
export const revokeRefreshFamilyOf = async (accountId: string, family: string): Promise<boolean> =>
  (
    await writeIf({
      Update: {
        Key: familyKey(family),
        ...withCondition(updateOf({ set: { revoked: true } }), {
          expression: 'account_id = :c0',
          values: { ':c0': accountId },
        }),
      },
    })
  ).written;

/**
 * Records a new primary authentication at `authTime` (epoch seconds), and the second factor when
 * `secondFactor`, on a family of `accountId` that is not revoked; false otherwise.
 */
export const renewRefreshAuthTime = async (
  accountId: string,
  family: string,
  options: { authTime: number; secondFactor: boolean },
): Promise<boolean> =>
  (
    await writeIf({
      Update: {
        Key: familyKey(family),
        ...withCondition(
          updateOf({
            set: { auth_time: options.authTime, ...(options.secondFactor ? { second_factor: true } : {}) },
          }),
          { expression: 'account_id = :c0 AND revoked = :c1', values: { ':c0': accountId, ':c1': false } },
        ),
      },
    })
  ).written;

/** An account's families as stored (GSI1; revoked and expired ones included), oldest first. */
export const refreshFamiliesOf = async (accountId: string): Promise<RefreshFamily[]> =>
  (
    await queryAll({
      IndexName: 'GSI1',
      KeyConditionExpression: 'GSI1PK = :pk',
      ExpressionAttributeValues: { ':pk': sessionsOf(accountId) },
    })
  ).map(familyOf);

/** Deletes a family (the account's deletion). */
export const deleteRefreshFamily = async (family: string): Promise<void> => {
  await db.send(new DeleteCommand({ TableName: tableName(), Key: familyKey(family) }));
};
