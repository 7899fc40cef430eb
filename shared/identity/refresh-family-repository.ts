import { compareText } from '../compare.ts';
import { batchGet } from '../db/batch.ts';
import { db } from '../db/client.ts';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '../db/document.ts';
import { queryAll } from '../db/query.ts';
import { recordOf } from '../db/record.ts';
import { tableName } from '../db/table.ts';
import { type TransactOperation, transactWriteIf, writeIf } from '../db/transaction.ts';
import { updateOf, withCondition } from '../db/update.ts';

/**
 * Refresh-token families (one sign-in each; the token rules are shared/identity/refresh-tokens.ts):
 * key design, named reads and named writes.
 * - family: PK `REFRESH#<family>`, SK `FAMILY` → the RefreshFamily below; TTL at its expiry. A
 *   refresh reads and rotates it by the id its token carries (one consistent GetItem).
 * - the account's entry of it: PK `ACCOUNT#<account>`, SK `REFRESH#<family>` (entity
 *   `refresh_family_entry`, `created_at`; TTL at the family's expiry), written in the family's
 *   own transaction. An account's families are found from these entries with a strongly
 *   consistent Query of its partition, so "sign out everywhere", a password reset, the session
 *   list, the export and the purge all see a sign-in made a moment before (docs/accounts.md
 *   "Sessions"). Families stored before the entries existed (until 2026-11-30) carry instead
 *   GSI1PK `SESSIONS#<account>`, GSI1SK `<created_at>#<family>`: they are read through GSI1 as
 *   well until the last of them has expired (`legacyFamilyIdsOf`).
 * - a rotated secret of it: PK `REFRESH#<family>`, SK `ROTATED#<SHA-256 of the secret>` (entity
 *   `refresh_rotated`, no other field; TTL at the family's expiry), written before the rotation
 *   that retires the secret. A refresh whose secret is not the current one looks it up: a
 *   rotated token presented again is reuse (the family is revoked), a secret never issued is
 *   only refused. The purge leaves these to their TTL (a hash of a dead random secret, under a
 *   random id whose account entry is gone).
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
  /** The id of the factor it last passed (families from before 2026-12-01: none). */
  second_factor_id?: string;
  /** When the family expires (epoch seconds; the TTL attribute). */
  expires_at_epoch: number;
}

const PREFIX = 'REFRESH#';
const familyKey = (family: string) => ({ PK: `${PREFIX}${family}`, SK: 'FAMILY' });

const familyOf = (item: Record<string, unknown>): RefreshFamily => ({
  ...recordOf<Omit<RefreshFamily, 'family'>>(item),
  family: String(item.PK).slice(PREFIX.length),
});

const entryKey = (accountId: string, family: string) => ({
  PK: `ACCOUNT#${accountId}`,
  SK: `${PREFIX}${family}`,
});

/**
 * Stores a new family (a sign-in) and the account's entry of it, in one transaction with
 * `conditions` (operations of other repositories that must hold); false when any failed.
 */
export const putRefreshFamily = (
  family: RefreshFamily,
  conditions: readonly TransactOperation[] = [],
): Promise<boolean> => {
  const { family: id, ...fields } = family;
  return transactWriteIf([
    {
      Put: {
        TableName: tableName(),
        Item: { ...familyKey(id), entity: 'refresh_family', ...fields },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
    {
      Put: {
        TableName: tableName(),
        Item: {
          ...entryKey(family.account_id, id),
          entity: 'refresh_family_entry',
          created_at: family.created_at,
          expires_at_epoch: family.expires_at_epoch,
        },
      },
    },
    ...conditions,
  ]);
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

const rotatedKey = (family: string, hash: string) => ({ PK: `${PREFIX}${family}`, SK: `ROTATED#${hash}` });

/** Records that the secret hashing to `hash` is retired (before the rotation that retires it). */
export const putRotatedSecret = async (
  family: string,
  hash: string,
  expiresAtEpoch: number,
): Promise<void> => {
  await db.send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...rotatedKey(family, hash), entity: 'refresh_rotated', expires_at_epoch: expiresAtEpoch },
    }),
  );
};

/** Was the secret hashing to `hash` once this family's (retired by a rotation)? Read consistently. */
export const wasRotatedSecret = async (family: string, hash: string): Promise<boolean> => {
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName(), Key: rotatedKey(family, hash), ConsistentRead: true }),
  );
  return Item !== undefined;
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
 * Records a new primary authentication at `authTime` (epoch seconds), and the second factor
 * `factorId` when one was passed, on a family of `accountId` that is not revoked; false otherwise.
 */
export const renewRefreshAuthTime = async (
  accountId: string,
  family: string,
  options: { authTime: number; factorId?: string },
): Promise<boolean> =>
  (
    await writeIf({
      Update: {
        Key: familyKey(family),
        ...withCondition(
          updateOf({
            set: {
              auth_time: options.authTime,
              ...(options.factorId ? { second_factor: true, second_factor_id: options.factorId } : {}),
            },
          }),
          { expression: 'account_id = :c0 AND revoked = :c1', values: { ':c0': accountId, ':c1': false } },
        ),
      },
    })
  ).written;

/**
 * The ids of the families stored before the account's entries existed (GSI1). Transitional: the
 * last of them expires 30 days after this change is deployed; the first release after that removes
 * this read and the GSI1 grant of the rows that list families (docs/accounts.md "Sessions").
 */
const legacyFamilyIdsOf = async (accountId: string): Promise<string[]> =>
  (
    await queryAll({
      IndexName: 'GSI1',
      KeyConditionExpression: 'GSI1PK = :pk',
      ExpressionAttributeValues: { ':pk': `SESSIONS#${accountId}` },
      ProjectionExpression: 'PK',
    })
  ).map((item) => String(item.PK).slice(PREFIX.length));

/**
 * Every family of an account as stored (revoked and expired ones included), oldest first: its
 * entries (a strongly consistent Query of its partition) and the legacy ones, then the families
 * themselves (a strongly consistent BatchGetItem). The one reader of an account's sign-ins.
 */
export const refreshFamiliesOf = async (accountId: string): Promise<RefreshFamily[]> => {
  const [entries, legacy] = await Promise.all([
    queryAll({
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :sk)',
      ExpressionAttributeValues: { ':pk': `ACCOUNT#${accountId}`, ':sk': PREFIX },
      ConsistentRead: true,
      ProjectionExpression: 'SK',
    }),
    legacyFamilyIdsOf(accountId),
  ]);
  const ids = new Set([...entries.map((item) => String(item.SK).slice(PREFIX.length)), ...legacy]);
  return (await batchGet([...ids].map(familyKey), { consistent: true }))
    .map(familyOf)
    .filter((family) => family.account_id === accountId)
    .sort((a, b) => compareText(a.created_at, b.created_at));
};

/** Deletes a family (the account's deletion). */
export const deleteRefreshFamily = async (family: string): Promise<void> => {
  await db.send(new DeleteCommand({ TableName: tableName(), Key: familyKey(family) }));
};
