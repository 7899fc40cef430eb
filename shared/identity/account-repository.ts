import { clock } from '../clock.ts';
import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '../db/document.ts';
import { batchGet } from '../db/batch.ts';
import { db } from '../db/client.ts';
import { queryAll } from '../db/query.ts';
import { recordOf } from '../db/record.ts';
import { tableName } from '../db/table.ts';
import {
  cancellationCodes,
  isConditionalCheckFailed,
  type TransactOperation,
  transactRetryingRaces,
  writtenIf,
} from '../db/transaction.ts';
import type { CategoryId } from '../catalog/model.ts';
import { ConflictError, NotFoundError } from '../errors/errors.ts';
import type { SocialPlatform, UserStatus } from './schemas.ts';

/**
 * Accounts and their uniqueness markers (see docs/data-model.md, Identity):
 * - account:        PK `ACCOUNT#<id>`, SK `PROFILE`
 * - email marker:   PK `EMAIL#<trimmed lower-case email>`, SK `MARKER` → account_id
 * - handle marker:  PK `HANDLE#<lower-case handle>`, SK `MARKER` → account_id
 * - Google marker:  PK `GOOGLE#<sub>`, SK `MARKER` → account_id
 * - app store token: PK `APP_ACCOUNT_TOKEN#<uuid>`, SK `MARKER` → account_id (the account a store
 *   notification's `appAccountToken` / obfuscated account id names; docs/payments.md, "App stores")
 * An account and its markers are written in one transaction with attribute_not_exists
 * conditions, so two racing sign-ups can never both take an email or a handle.
 * A Google identity is linked to an existing account only while that account's email is verified
 * (a condition of the linking transaction, see `linkGoogleIdentity`).
 */
export interface Account {
  account_id: string;
  /**
   * A stable UUID per account for the app stores (Apple's `appAccountToken`, Google Play's
   * obfuscated account id), never the account id itself: set at sign-up, or on the first
   * `GET /me` for accounts created before it existed (`ensureAppAccountToken`).
   */
  app_account_token?: string;
  email: string;
  creator_name: string;
  handle: string | null;
  password_hash?: string;
  /** When a change or a reset last set the password (absent: never since sign-up). */
  password_changed_at?: string;
  /**
   * How many times every session of the account was signed out (`signOutEverywhere`; absent:
   * never): a sign-in stores its session only while it is still the count it read.
   */
  sign_out_count?: number;
  google_sub?: string;
  /** The owner proved the address: a code sent to it (email-verification.ts) or Google created the account. */
  email_verified?: boolean;
  email_verified_at?: string;
  user_status: UserStatus;
  /** Onboarding steps completed after the account itself: `category`, `social`. */
  completed_steps: string[];
  category?: CategoryId;
  social?: Array<{ platform: SocialPlatform; connected_at: string; token_sha256: string }>;
  created_at: string;
  /**
   * Set by `DELETE /me` (the tombstone): from then on sign-in and refresh refuse the account, and
   * the account jobs worker purges its items (docs/accounts.md "Deletion").
   */
  deleted_at?: string;
}

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

/**
 * Has the owner proved the email address? Accounts created by Google sign-in count (Google
 * verified it; those created before `email_verified` existed carry only `google_sub`, and no
 * other path ever wrote `google_sub`).
 */
export const isEmailVerified = (account: Account): boolean =>
  account.email_verified === true || account.google_sub !== undefined;
const accountKey = (id: string) => ({ PK: `ACCOUNT#${id}`, SK: 'PROFILE' });
/** The key of an email's marker (its account, or a deleted account's quarantine reservation). */
export const emailKey = (email: string) => ({ PK: `EMAIL#${normalizeEmail(email)}`, SK: 'MARKER' });
/** The key of a handle's marker. */
export const handleKey = (handle: string) => ({ PK: `HANDLE#${handle.toLowerCase()}`, SK: 'MARKER' });
const googleKey = (sub: string) => ({ PK: `GOOGLE#${sub}`, SK: 'MARKER' });
const appTokenKey = (token: string) => ({ PK: `APP_ACCOUNT_TOKEN#${token.toLowerCase()}`, SK: 'MARKER' });

const put = (Item: Record<string, unknown>) => ({
  Put: { TableName: tableName(), Item, ConditionExpression: 'attribute_not_exists(PK)' },
});

/**
 * Takes an email, handle or Google marker: free when absent or when it is a deleted account's
 * reservation whose quarantine has ended (`reserved_until`; TTL removes it some time later).
 */
const putMarker = (Item: Record<string, unknown>, now: Date) => ({
  Put: {
    TableName: tableName(),
    Item,
    ConditionExpression: 'attribute_not_exists(PK) OR reserved_until < :now',
    ExpressionAttributeValues: { ':now': now.toISOString() },
  },
});

/** A marker that is a quarantine reservation still running at `now` holds its value too. */
const holds = (marker: Record<string, unknown> | undefined, now: Date): boolean =>
  marker !== undefined &&
  (marker.reserved_until === undefined || String(marker.reserved_until) >= now.toISOString());

/** Days a deleted account's email and handle stay reserved (docs/accounts.md "Deletion"). */
export const QUARANTINE_DAYS = 30;

/** Items of an account and its markers (the loader uses this for demo accounts). */
export const accountItems = (account: Account): Record<string, unknown>[] => [
  { ...accountKey(account.account_id), entity: 'account', ...account, email: normalizeEmail(account.email) },
  { ...emailKey(account.email), account_id: account.account_id },
  ...(account.handle ? [{ ...handleKey(account.handle), account_id: account.account_id }] : []),
  ...(account.google_sub ? [{ ...googleKey(account.google_sub), account_id: account.account_id }] : []),
  ...(account.app_account_token
    ? [{ ...appTokenKey(account.app_account_token), account_id: account.account_id }]
    : []),
];

/** Maps a cancelled uniqueness transaction to the 409 naming what was taken. */
/**
 * Creates an account with its markers atomically; 409 when the email or handle is taken.
 * `alsoPut` items (new items of other entities, e.g. the first verification code) are written in
 * the same transaction, each with `attribute_not_exists`. A transaction cancelled by a race with
 * another on one of its items (two sign-ups of one address at once: DynamoDB cancels the later
 * with `TransactionConflict`, no condition failed) is retried, and then meets the other's marker
 * (409); until 2026-12-01 it was a 500 (test/security/probe60-identity.int.test.ts).
 */
export const createAccount = async (
  account: Account,
  alsoPut: readonly Record<string, unknown>[] = [],
): Promise<void> => {
  const [accountItem, ...markers] = accountItems(account);
  const now = new Date(account.created_at);
  const order: Array<'account' | 'email' | 'handle' | 'google'> = ['account', 'email'];
  if (account.handle) order.push('handle');
  if (account.google_sub) order.push('google');
  const outcome = await transactRetryingRaces([
    put(accountItem!),
    ...markers.map((marker) => putMarker(marker, now)),
    ...alsoPut.map(put),
  ]);
  if (outcome.written) return;
  const taken = order.find((_, i) => outcome.failed.includes(i));
  if (taken === 'email' || taken === 'google') throw new ConflictError('Email already registered');
  if (taken === 'handle') throw new ConflictError('Handle already taken');
  if (taken === 'account') throw new ConflictError('Account already exists');
  throw new ConflictError(
    'The account could not be created (a sign-up of the same address or handle was under way): retry',
  );
};

/**
 * Sets or changes an account's handle in one transaction: the account's handle moves from the
 * value just read (condition: unchanged since), the new handle's marker is taken
 * (attribute_not_exists) and the old one released. 409 when another account holds the handle, or
 * the account's handle changed meanwhile (or kept losing races: until 2026-12-01 one lost race with
 * another transaction, DynamoDB's `TransactionConflict`, was a 500).
 * A change of letter case only keeps the marker (handles are unique case-insensitively).
 */
export const setHandle = async (accountId: string, handle: string, now = clock.now()): Promise<void> => {
  const current = await getAccount(accountId);
  // A deleted account (the tombstone, until its purge) keeps its handle for the purge's
  // quarantine: changing it would release it at once.
  if (!current || current.deleted_at !== undefined) throw new NotFoundError('Account not found');
  const previous = current.handle;
  const sameMarker = previous?.toLowerCase() === handle.toLowerCase();
  const accountUpdate = {
    Update: {
      TableName: tableName(),
      Key: accountKey(accountId),
      UpdateExpression: 'SET handle = :handle',
      ConditionExpression: previous
        ? 'handle = :previous AND attribute_not_exists(deleted_at)'
        : 'attribute_exists(PK) AND attribute_not_exists(deleted_at) AND (attribute_not_exists(handle) OR attribute_type(handle, :null))',
      ExpressionAttributeValues: previous
        ? { ':handle': handle, ':previous': previous }
        : { ':handle': handle, ':null': 'NULL' },
    },
  };
  const release = previous
    ? {
        Delete: {
          TableName: tableName(),
          Key: handleKey(previous),
          ConditionExpression: 'account_id = :me',
          ExpressionAttributeValues: { ':me': accountId },
        },
      }
    : undefined;
  const items = sameMarker
    ? [accountUpdate]
    : [
        accountUpdate,
        putMarker({ ...handleKey(handle), account_id: accountId }, now),
        ...(release ? [release] : []),
      ];
  // A race with another transaction on one of these items is retried; then a condition decides.
  const outcome = await transactRetryingRaces(items);
  if (outcome.written) return;
  if (outcome.failed.includes(1)) throw new ConflictError('Handle already taken');
  throw new ConflictError('The handle changed meanwhile; retry');
};

/**
 * The transaction operation that marks an account's email verified, on condition that the account
 * still has the address the code was sent to.
 */
export const emailVerifiedUpdate = (accountId: string, email: string, at: Date) => ({
  Update: {
    TableName: tableName(),
    Key: accountKey(accountId),
    UpdateExpression: 'SET email_verified = :true, email_verified_at = :at',
    ConditionExpression: 'attribute_exists(PK) AND email = :email',
    ExpressionAttributeValues: { ':true': true, ':at': at.toISOString(), ':email': normalizeEmail(email) },
  },
});

/**
 * Links a Google identity to an existing account in one transaction: the account gets `google_sub`
 * on condition that its email is still `email` and verified, it has no Google identity yet and is
 * not deleted, and the Google marker is taken (free, as at sign-up: absent, or a deleted account's
 * reservation whose quarantine ended). 409 when any condition fails.
 */
export const linkGoogleIdentity = async (
  accountId: string,
  email: string,
  sub: string,
  now: Date,
): Promise<void> => {
  try {
    await db.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: tableName(),
              Key: accountKey(accountId),
              UpdateExpression: 'SET google_sub = :sub',
              ConditionExpression:
                'email = :email AND email_verified = :true AND attribute_not_exists(google_sub) AND attribute_not_exists(deleted_at)',
              ExpressionAttributeValues: { ':sub': sub, ':email': normalizeEmail(email), ':true': true },
            },
          },
          putMarker({ ...googleKey(sub), account_id: accountId }, now),
        ],
      }),
    );
  } catch (error) {
    if (cancellationCodes(error)) {
      throw new ConflictError('This account changed meanwhile and cannot be linked to Google; retry');
    }
    throw error;
  }
};

const accountOf = (item: Record<string, unknown> | undefined): Account | undefined =>
  item ? recordOf<Account>(item) : undefined;

/** The account; `consistent`: a strongly consistent read (what a sign-in checks must be current). */
export const getAccount = async (accountId: string, consistent = false): Promise<Account | undefined> =>
  accountOf(
    (
      await db.send(
        new GetCommand({ TableName: tableName(), Key: accountKey(accountId), ConsistentRead: consistent }),
      )
    ).Item,
  );

/**
 * The caller's account, or 404 `Account not found` when it is gone or deleted: an access token
 * outlives the tombstone by up to 15 minutes (verified without a read), and a deleted account gets
 * no fresh token and changes no credential (docs/accounts.md "Deletion").
 */
export const requireLiveAccount = async (accountId: string): Promise<Account> => {
  const account = await getAccount(accountId);
  if (!account || account.deleted_at !== undefined) throw new NotFoundError('Account not found');
  return account;
};

/**
 * The account a marker names. Without one, the profile of an id no account can have is read in its
 * place: a lookup by email or Google subject makes the same two GetItems whether or not the account
 * exists, so unauthenticated routes (login, forgot-password, reset) take the same time either way.
 * The profile is read consistently: a sign-in stores its session only while the account is as it
 * read it (`signInBasisCheck`), so a stale read just after a reset or a sign-out everywhere would
 * refuse a good sign-in.
 */
const byMarker = async (key: { PK: string; SK: string }): Promise<Account | undefined> => {
  const marker = (await db.send(new GetCommand({ TableName: tableName(), Key: key }))).Item;
  return getAccount(marker?.account_id ? String(marker.account_id) : NO_ACCOUNT, true);
};
/** An account id no account has (ids are `acc_…`), whose profile is read for a missing marker. */
const NO_ACCOUNT = '-';

export const getAccountByEmail = (email: string) => byMarker(emailKey(email));
export const getAccountByGoogleSub = (sub: string) => byMarker(googleKey(sub));

/** The id of the account whose `app_account_token` this is (an app store names accounts so), if any. */
export const accountIdOfAppToken = async (token: string): Promise<string | undefined> => {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: appTokenKey(token) }));
  return Item?.account_id ? String(Item.account_id) : undefined;
};

export const isEmailTaken = async (email: string, now = clock.now()): Promise<boolean> =>
  holds((await db.send(new GetCommand({ TableName: tableName(), Key: emailKey(email) }))).Item, now);

/** Which of `handles` are taken (one BatchGetItem of their markers). */
export const takenHandles = async (handles: readonly string[], now = clock.now()): Promise<Set<string>> => {
  const items = await batchGet(handles.map(handleKey));
  return new Set(
    items.filter((item) => holds(item, now)).map((item) => String(item.PK).slice('HANDLE#'.length)),
  );
};

/** Is the account there and not deleted? (A consistent read: the tombstone counts at once.) */
export const isActiveAccount = async (accountId: string): Promise<boolean> => {
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName(), Key: accountKey(accountId), ConsistentRead: true }),
  );
  return Item !== undefined && Item.deleted_at === undefined;
};

/**
 * The tombstone of `DELETE /me`: sets `deleted_at` unless set. False when the account was
 * deleted already (a repeated request); NotFound when there is no such account.
 */
export const markDeleted = async (accountId: string, at: Date): Promise<boolean> => {
  try {
    await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: accountKey(accountId),
        UpdateExpression: 'SET deleted_at = :at',
        ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(deleted_at)',
        ExpressionAttributeValues: { ':at': at.toISOString() },
      }),
    );
    return true;
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error;
    if (!(await getAccount(accountId))) throw new NotFoundError('Account not found');
    return false;
  }
};

/** Every item of the account's partition (`ACCOUNT#<id>`), keys included: its export and its purge. */
export const accountPartition = (accountId: string): Promise<Record<string, unknown>[]> =>
  queryAll({
    KeyConditionExpression: 'PK = :pk',
    ExpressionAttributeValues: { ':pk': accountKey(accountId).PK },
    ConsistentRead: true,
  });

/**
 * The end of a deleted account's identity, one transaction: its profile item goes, and its email,
 * handle and Google markers become reservations for QUARANTINE_DAYS (no account id, TTL at the
 * end), so nobody can take them over at once.
 */
export const purgeIdentity = async (account: Account, now: Date): Promise<void> => {
  const until = new Date(now.getTime() + QUARANTINE_DAYS * 86_400_000);
  const reservation = (key: { PK: string; SK: string }) => ({
    Put: {
      TableName: tableName(),
      Item: {
        ...key,
        entity: 'reservation',
        reserved_until: until.toISOString(),
        expires_at_epoch: Math.floor(until.getTime() / 1000),
      },
    },
  });
  await db.send(
    new TransactWriteCommand({
      TransactItems: [
        { Delete: { TableName: tableName(), Key: accountKey(account.account_id) } },
        reservation(emailKey(account.email)),
        ...(account.handle ? [reservation(handleKey(account.handle))] : []),
        ...(account.google_sub ? [reservation(googleKey(account.google_sub))] : []),
        ...(account.app_account_token
          ? [{ Delete: { TableName: tableName(), Key: appTokenKey(account.app_account_token) } }]
          : []),
      ],
    }),
  );
};

/** Records progress on an onboarding step; the account turns `active` when every step is done. */
export const completeStep = async (
  accountId: string,
  step: 'category' | 'social',
  changes: Record<string, unknown>,
  allSteps: readonly string[],
): Promise<Account> => {
  const account = await getAccount(accountId);
  const completed = [...new Set([...(account?.completed_steps ?? []), step])];
  const status: UserStatus = allSteps.every((s) => completed.includes(s)) ? 'active' : 'onboarding';
  const names: Record<string, string> = { '#steps': 'completed_steps', '#status': 'user_status' };
  const values: Record<string, unknown> = { ':steps': completed, ':status': status };
  const sets = ['#steps = :steps', '#status = :status'];
  for (const [i, [field, value]] of Object.entries(changes).entries()) {
    names[`#f${i}`] = field;
    values[`:f${i}`] = value;
    sets.push(`#f${i} = :f${i}`);
  }
  const result = await db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: accountKey(accountId),
      UpdateExpression: `SET ${sets.join(', ')}`,
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      ReturnValues: 'ALL_NEW',
    }),
  );
  return accountOf(result.Attributes)!;
};

/**
 * The account's `app_account_token`, made on first use for accounts created before sign-up set
 * it: one conditional UpdateItem (`if_not_exists`), so concurrent first reads agree on one UUID.
 */
export const ensureAppAccountToken = async (account: Account): Promise<Account> => {
  if (account.app_account_token) return account;
  const result = await db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: accountKey(account.account_id),
      UpdateExpression: 'SET app_account_token = if_not_exists(app_account_token, :token)',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeValues: { ':token': randomUUID() },
      ReturnValues: 'ALL_NEW',
    }),
  );
  const updated = accountOf(result.Attributes)!;
  // Its marker (the stores name the account by it): the same value whoever wrote the token first.
  await db.send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...appTokenKey(updated.app_account_token!), account_id: updated.account_id },
    }),
  );
  return updated;
};

/** Sets the account's display name (`creator_name`); 404 when the account is gone or deleted. */
export const setDisplayName = async (accountId: string, name: string): Promise<void> => {
  try {
    await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: accountKey(accountId),
        UpdateExpression: 'SET creator_name = :name',
        ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(deleted_at)',
        ExpressionAttributeValues: { ':name': name },
      }),
    );
  } catch (error) {
    if (isConditionalCheckFailed(error)) throw new NotFoundError('Account not found');
    throw error;
  }
};

/**
 * The transaction operation of a password reset: sets the new hash and marks the email verified
 * (the code mailed to it proves the address), on condition that the account still has `email`.
 */
export const passwordResetUpdate = (accountId: string, email: string, passwordHash: string, at: Date) => ({
  Update: {
    TableName: tableName(),
    Key: accountKey(accountId),
    UpdateExpression:
      'SET password_hash = :hash, password_changed_at = :at, email_verified = :true, email_verified_at = if_not_exists(email_verified_at, :at)',
    ConditionExpression: 'attribute_exists(PK) AND email = :email',
    ExpressionAttributeValues: {
      ':hash': passwordHash,
      ':at': at.toISOString(),
      ':true': true,
      ':email': normalizeEmail(email),
    },
  },
});

/**
 * What a sign-in read of the account, which its session must still match when it is stored
 * (docs/accounts.md "Sessions"): the account's `sign_out_count` (every sign-in; undefined: never
 * signed out everywhere) and, for a password sign-in, the checked password by its
 * `password_changed_at` (undefined: never changed since sign-up).
 */
export interface SignInBasis {
  signOutCount: number | undefined;
  password?: { changedAt: string | undefined };
}

/** The basis of a sign-in that read `account` (`password`: its password was the first factor). */
export const signInBasis = (account: Account, password: boolean): SignInBasis => ({
  signOutCount: account.sign_out_count,
  ...(password ? { password: { changedAt: account.password_changed_at } } : {}),
});

/**
 * A transaction operation that holds only while the account is as the sign-in read it (one
 * ConditionCheck: a transaction takes one operation per item): not signed out everywhere since,
 * nor, for a password sign-in, its password changed or reset since. A session stored with it
 * cannot outlive a sign-out everywhere, a change or a reset that ran while the sign-in was under
 * way and so could not see it yet.
 */
export const signInBasisCheck = (accountId: string, basis: SignInBasis): TransactOperation => {
  const conditions = ['attribute_exists(PK)'];
  const values: Record<string, unknown> = {};
  if (basis.signOutCount === undefined) conditions.push('attribute_not_exists(sign_out_count)');
  else {
    conditions.push('sign_out_count = :signOuts');
    values[':signOuts'] = basis.signOutCount;
  }
  const changedAt = basis.password?.changedAt;
  if (basis.password && changedAt === undefined) conditions.push('attribute_not_exists(password_changed_at)');
  if (changedAt !== undefined) {
    conditions.push('password_changed_at = :changedAt');
    values[':changedAt'] = changedAt;
  }
  return {
    ConditionCheck: {
      TableName: tableName(),
      Key: accountKey(accountId),
      ConditionExpression: conditions.join(' AND '),
      ...(Object.keys(values).length > 0 ? { ExpressionAttributeValues: values } : {}),
    },
  };
};

/**
 * Counts a sign-out everywhere on the account (`sign_out_count` + 1), which `signOutEverywhere`
 * does before it lists the sessions: a sign-in that read the account before can no longer store
 * its session (`signInBasisCheck`), and one stored before is listed. False when there is no
 * account (purged: its sessions went with it).
 */
export const countSignOut = async (accountId: string): Promise<boolean> =>
  writtenIf({
    Update: {
      Key: accountKey(accountId),
      UpdateExpression: 'ADD sign_out_count :one',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeValues: { ':one': 1 },
    },
  });

/**
 * Replaces the account's password hash, on condition that it is still `previousHash` (the one the
 * current password was checked against); 409 when it changed meanwhile.
 */
export const changePasswordHash = async (
  accountId: string,
  previousHash: string,
  passwordHash: string,
  at: Date,
): Promise<void> => {
  try {
    await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: accountKey(accountId),
        UpdateExpression: 'SET password_hash = :hash, password_changed_at = :at',
        ConditionExpression: 'password_hash = :previous',
        ExpressionAttributeValues: {
          ':hash': passwordHash,
          ':previous': previousHash,
          ':at': at.toISOString(),
        },
      }),
    );
  } catch (error) {
    if (isConditionalCheckFailed(error)) throw new ConflictError('The password changed meanwhile; retry');
    throw error;
  }
};

/**
 * The transaction operations that move an account from `oldEmail` to `newEmail` (verified: the
 * code mailed to it proves it): the account (condition: still `oldEmail`, not deleted), the new address's
 * marker (free: no other account took it, and a deleted account's reservation has ended, as for
 * sign-up) and the old one released.
 */
export const emailChangeOperations = (accountId: string, oldEmail: string, newEmail: string, at: Date) => [
  {
    Update: {
      TableName: tableName(),
      Key: accountKey(accountId),
      UpdateExpression: 'SET email = :new, email_verified = :true, email_verified_at = :at',
      // Not a deleted account's: its addresses wait out their quarantine (the purge reserves them).
      ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(deleted_at) AND email = :old',
      ExpressionAttributeValues: {
        ':new': normalizeEmail(newEmail),
        ':old': normalizeEmail(oldEmail),
        ':true': true,
        ':at': at.toISOString(),
      },
    },
  },
  putMarker({ ...emailKey(newEmail), account_id: accountId }, at),
  {
    Delete: {
      TableName: tableName(),
      Key: emailKey(oldEmail),
      ConditionExpression: 'account_id = :me',
      ExpressionAttributeValues: { ':me': accountId },
    },
  },
];
