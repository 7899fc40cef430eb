import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { batchGet } from '../db/batch.ts';
import { db } from '../db/client.ts';
import { tableName } from '../db/table.ts';
import { ConflictError, NotFoundError } from '../http/errors.ts';

/**
 * Accounts and their uniqueness markers (see docs/data-model.md, Identity):
 * - account:        PK `ACCOUNT#<id>`, SK `PROFILE`
 * - email marker:   PK `EMAIL#<trimmed lower-case email>`, SK `MARKER` → account_id
 * - handle marker:  PK `HANDLE#<lower-case handle>`, SK `MARKER` → account_id
 * - Google marker:  PK `GOOGLE#<sub>`, SK `MARKER` → account_id
 * An account and its markers are written in one transaction with attribute_not_exists
 * conditions, so two racing sign-ups can never both take an email or a handle.
 */
export type UserStatus = 'onboarding' | 'active';

export interface Account {
  account_id: string;
  email: string;
  creator_name: string;
  handle: string | null;
  password_hash?: string;
  google_sub?: string;
  user_status: UserStatus;
  /** Onboarding steps completed after the account itself: `category`, `social`. */
  completed_steps: string[];
  category?: string;
  social?: Array<{ platform: string; connected_at: string; token_sha256: string }>;
  created_at: string;
}

export const normalizeEmail = (email: string) => email.trim().toLowerCase();
const accountKey = (id: string) => ({ PK: `ACCOUNT#${id}`, SK: 'PROFILE' });
const emailKey = (email: string) => ({ PK: `EMAIL#${normalizeEmail(email)}`, SK: 'MARKER' });
const handleKey = (handle: string) => ({ PK: `HANDLE#${handle.toLowerCase()}`, SK: 'MARKER' });
const googleKey = (sub: string) => ({ PK: `GOOGLE#${sub}`, SK: 'MARKER' });

const put = (Item: Record<string, unknown>) => ({
  Put: { TableName: tableName(), Item, ConditionExpression: 'attribute_not_exists(PK)' },
});

/** Items of an account and its markers (the loader uses this for demo accounts). */
export const accountItems = (account: Account): Record<string, unknown>[] => [
  { ...accountKey(account.account_id), entity: 'account', ...account, email: normalizeEmail(account.email) },
  { ...emailKey(account.email), account_id: account.account_id },
  ...(account.handle ? [{ ...handleKey(account.handle), account_id: account.account_id }] : []),
  ...(account.google_sub ? [{ ...googleKey(account.google_sub), account_id: account.account_id }] : []),
];

/** Maps a cancelled uniqueness transaction to the 409 naming what was taken. */
const conflictFrom = (error: unknown, order: Array<'account' | 'email' | 'handle' | 'google'>): never => {
  if (error instanceof TransactionCanceledException) {
    const reasons = error.CancellationReasons ?? [];
    const taken = order.find((_, i) => reasons[i]?.Code === 'ConditionalCheckFailed');
    if (taken === 'email' || taken === 'google') throw new ConflictError('Email already registered');
    if (taken === 'handle') throw new ConflictError('Handle already taken');
    if (taken === 'account') throw new ConflictError('Account already exists');
  }
  throw error;
};

/** Creates an account with its markers atomically; 409 when the email or handle is taken. */
export const createAccount = async (account: Account): Promise<void> => {
  const items = accountItems(account);
  const order: Array<'account' | 'email' | 'handle' | 'google'> = ['account', 'email'];
  if (account.handle) order.push('handle');
  if (account.google_sub) order.push('google');
  try {
    await db.send(new TransactWriteCommand({ TransactItems: items.map(put) }));
  } catch (error) {
    conflictFrom(error, order);
  }
};

/**
 * Sets or changes an account's handle in one transaction: the account's handle moves from the
 * value just read (condition: unchanged since), the new handle's marker is taken
 * (attribute_not_exists) and the old one released. 409 when another account holds the handle.
 * A change of letter case only keeps the marker (handles are unique case-insensitively).
 */
export const setHandle = async (accountId: string, handle: string): Promise<void> => {
  const current = await getAccount(accountId);
  if (!current) throw new NotFoundError('Account not found');
  const previous = current.handle;
  const sameMarker = previous?.toLowerCase() === handle.toLowerCase();
  const accountUpdate = {
    Update: {
      TableName: tableName(),
      Key: accountKey(accountId),
      UpdateExpression: 'SET handle = :handle',
      ConditionExpression: previous
        ? 'handle = :previous'
        : 'attribute_exists(PK) AND (attribute_not_exists(handle) OR attribute_type(handle, :null))',
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
    : [accountUpdate, put({ ...handleKey(handle), account_id: accountId }), ...(release ? [release] : [])];
  try {
    await db.send(new TransactWriteCommand({ TransactItems: items }));
  } catch (error) {
    if (
      error instanceof TransactionCanceledException &&
      error.CancellationReasons?.[0]?.Code === 'ConditionalCheckFailed'
    ) {
      throw new ConflictError('The handle changed meanwhile; retry');
    }
    conflictFrom(error, ['account', 'handle']);
  }
};

const strip = (item: Record<string, unknown> | undefined): Account | undefined => {
  if (!item) return undefined;
  const { PK: _p, SK: _s, entity: _e, ...account } = item;
  return account as unknown as Account;
};

export const getAccount = async (accountId: string): Promise<Account | undefined> =>
  strip((await db.send(new GetCommand({ TableName: tableName(), Key: accountKey(accountId) }))).Item);

const byMarker = async (key: { PK: string; SK: string }): Promise<Account | undefined> => {
  const marker = (await db.send(new GetCommand({ TableName: tableName(), Key: key }))).Item;
  return marker ? getAccount(String(marker.account_id)) : undefined;
};

export const getAccountByEmail = (email: string) => byMarker(emailKey(email));
export const getAccountByGoogleSub = (sub: string) => byMarker(googleKey(sub));

export const isEmailTaken = async (email: string): Promise<boolean> =>
  Boolean((await db.send(new GetCommand({ TableName: tableName(), Key: emailKey(email) }))).Item);

/** Which of `handles` are taken (one BatchGetItem of their markers). */
export const takenHandles = async (handles: readonly string[]): Promise<Set<string>> => {
  const items = await batchGet(handles.map(handleKey), (item) => String(item.PK));
  return new Set(items.map((item) => String(item.PK).slice('HANDLE#'.length)));
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
  return strip(result.Attributes)!;
};
