import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '../db/document.ts';
import { db } from '../db/client.ts';
import { queryAll } from '../db/query.ts';
import { tableName } from '../db/table.ts';
import { UnauthorizedError } from '../errors/errors.ts';
import { issueAccessToken } from './access-token.ts';
import { deviceLabel } from './device-label.ts';
import type { SessionTokens } from './schemas.ts';
import { isConditionalCheckFailed } from '../db/transaction.ts';
import { isActiveAccount } from './account-repository.ts';
import { compareText } from '../compare.ts';

/**
 * Rotating refresh tokens with reuse detection. A refresh token is `<family id>.<secret>`; the
 * family item (PK `REFRESH#<family>`, SK `FAMILY`, TTL at its expiry) stores only the SHA-256 of
 * the current secret. Refreshing swaps the hash with a condition on the old one, so one token
 * can be used once; presenting an already-rotated token revokes the whole family (a stolen token
 * and its thief's successors die together). Logout revokes the family.
 * A family is one sign-in, what `GET /me/sessions` lists (docs/accounts.md): it also keeps the
 * device label, when it was created and last refreshed, and its `auth_time` (epoch seconds of the
 * last primary authentication: the sign-in, or a later step-up), which every access token it
 * issues carries. GSI1 lists an account's families: GSI1PK `SESSIONS#<account>`, GSI1SK
 * `<created_at>#<family>` (the session list, the account's export and its purge). A refresh is
 * refused once the account is deleted (a consistent GetItem of the account: the tombstone stops
 * refreshes at once).
 */
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 3600;

const sha256 = (value: string) => createHash('sha256').update(value).digest('base64url');
const familyKey = (family: string) => ({ PK: `REFRESH#${family}`, SK: 'FAMILY' });
const sessionsOf = (accountId: string) => `SESSIONS#${accountId}`;
const newSecret = () => randomBytes(32).toString('base64url');
const epoch = (date: Date) => Math.floor(date.getTime() / 1000);
const FAMILY_ID = /^[0-9a-f-]{36}$/;

const parse = (token: string) => {
  const [family, secret] = token.split('.');
  if (!family || !secret || !FAMILY_ID.test(family)) throw new UnauthorizedError('Invalid refresh token');
  return { family, secret };
};

/** Is `id` shaped like a family id (a UUID)? */
export const isSessionId = (id: string): boolean => FAMILY_ID.test(id);

/** One sign-in of an account, as `GET /me/sessions` shows it. */
export interface SignInSession {
  id: string;
  device: string;
  created_at: string;
  last_used_at: string;
  expires_at: string;
}

/**
 * The token pair a sign-in returns; `userAgent` labels the device in the session list.
 * `secondFactor`: the sign-in passed the account's second factor (its tokens, refreshed ones
 * included, carry `amr: ["mfa"]`).
 */
export const issueSession = async (
  accountId: string,
  now: Date,
  userAgent?: string,
  secondFactor = false,
): Promise<SessionTokens> => {
  const family = randomUUID();
  const secret = newSecret();
  const expires = epoch(now) + REFRESH_TOKEN_TTL_SECONDS;
  await db.send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...familyKey(family),
        entity: 'refresh_family',
        GSI1PK: sessionsOf(accountId),
        GSI1SK: `${now.toISOString()}#${family}`,
        account_id: accountId,
        current: sha256(secret),
        revoked: false,
        device: deviceLabel(userAgent),
        created_at: now.toISOString(),
        last_used_at: now.toISOString(),
        auth_time: epoch(now),
        ...(secondFactor ? { second_factor: true } : {}),
        expires_at_epoch: expires,
      },
    }),
  );
  const access = await issueAccessToken(accountId, now, { authTime: now, sessionId: family, secondFactor });
  return {
    auth_token: access.token,
    token_expires_at: access.expiresAt,
    refresh_token: `${family}.${secret}`,
    refresh_token_expires_at: new Date(expires * 1000).toISOString(),
  };
};

const revoke = (family: string) =>
  db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: familyKey(family),
      UpdateExpression: 'SET revoked = :t',
      ExpressionAttributeValues: { ':t': true },
    }),
  );

/** Exchanges a refresh token for a new pair; reuse of a rotated token revokes the family (401). */
export const rotateSession = async (token: string, now: Date): Promise<SessionTokens> => {
  const { family, secret } = parse(token);
  const item = (
    await db.send(new GetCommand({ TableName: tableName(), Key: familyKey(family), ConsistentRead: true }))
  ).Item;
  if (!item || item.revoked || Number(item.expires_at_epoch) * 1000 <= now.getTime()) {
    throw new UnauthorizedError('Invalid refresh token');
  }
  if (item.current !== sha256(secret)) {
    await revoke(family);
    throw new UnauthorizedError('Refresh token reuse detected: every session of this sign-in was revoked');
  }
  if (!(await isActiveAccount(String(item.account_id)))) throw new UnauthorizedError('Invalid refresh token');
  const next = newSecret();
  try {
    await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: familyKey(family),
        UpdateExpression: 'SET #current = :next, last_used_at = :now',
        ConditionExpression: '#current = :old AND revoked = :f',
        ExpressionAttributeNames: { '#current': 'current' },
        ExpressionAttributeValues: {
          ':next': sha256(next),
          ':old': sha256(secret),
          ':f': false,
          ':now': now.toISOString(),
        },
      }),
    );
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error;
    // Lost a race with another use of the same token: that is reuse too.
    await revoke(family);
    throw new UnauthorizedError('Refresh token reuse detected: every session of this sign-in was revoked');
  }
  // A refresh keeps the sign-in's auth_time (families from before it existed: their creation).
  const authTime = new Date(
    typeof item.auth_time === 'number' ? item.auth_time * 1000 : Date.parse(String(item.created_at)),
  );
  const access = await issueAccessToken(String(item.account_id), now, {
    authTime,
    sessionId: family,
    secondFactor: item.second_factor === true,
  });
  return {
    auth_token: access.token,
    token_expires_at: access.expiresAt,
    refresh_token: `${family}.${next}`,
    refresh_token_expires_at: new Date(Number(item.expires_at_epoch) * 1000).toISOString(),
  };
};

/**
 * Revokes family `family` if it belongs to `accountId`; false when it does not exist or is
 * another account's. Idempotent for the owner.
 */
export const revokeFamily = async (accountId: string, family: string): Promise<boolean> => {
  try {
    await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: familyKey(family),
        UpdateExpression: 'SET revoked = :t',
        ConditionExpression: 'account_id = :account',
        ExpressionAttributeValues: { ':t': true, ':account': accountId },
      }),
    );
    return true;
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error;
    return false;
  }
};

/** Revokes the family of a refresh token that belongs to `accountId` (logout). Idempotent. */
export const revokeSession = async (token: string, accountId: string): Promise<void> => {
  await revokeFamily(accountId, parse(token).family);
};

/** The account's families as stored (GSI1; revoked and expired ones included), oldest first. */
const familyItems = (accountId: string) =>
  queryAll({
    IndexName: 'GSI1',
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': sessionsOf(accountId) },
  });

const familyIdOf = (item: Record<string, unknown>) => String(item.PK).slice('REFRESH#'.length);

/** The account's sign-ins still usable at `now` (neither revoked nor expired), newest first. */
export const listSessions = async (accountId: string, now: Date): Promise<SignInSession[]> =>
  (await familyItems(accountId))
    .filter((item) => item.revoked !== true && Number(item.expires_at_epoch) > epoch(now))
    .map((item) => ({
      id: familyIdOf(item),
      device: String(item.device ?? 'Unknown device'),
      created_at: String(item.created_at),
      last_used_at: String(item.last_used_at ?? item.created_at),
      expires_at: new Date(Number(item.expires_at_epoch) * 1000).toISOString(),
    }))
    .sort((a, b) => compareText(b.created_at, a.created_at));

/**
 * Revokes every usable sign-in of the account except `keep` (the caller's own, for "sign out
 * everywhere else"); the number revoked. Access tokens already issued run out within 15 minutes.
 */
export const revokeAllSessions = async (accountId: string, now: Date, keep?: string): Promise<number> => {
  const sessions = (await listSessions(accountId, now)).filter((s) => s.id !== keep);
  await Promise.all(sessions.map((s) => revokeFamily(accountId, s.id)));
  return sessions.length;
};

/**
 * Records a new primary authentication (a step-up) on the caller's sign-in, so the access tokens
 * its refreshes issue carry the new `auth_time`; false when the family is revoked or not the
 * account's.
 */
export const renewAuthTime = async (
  accountId: string,
  family: string,
  at: Date,
  secondFactor = false,
): Promise<boolean> => {
  try {
    await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: familyKey(family),
        UpdateExpression: secondFactor ? 'SET auth_time = :at, second_factor = :t' : 'SET auth_time = :at',
        ConditionExpression: 'account_id = :account AND revoked = :f',
        ExpressionAttributeValues: {
          ':at': epoch(at),
          ':account': accountId,
          ':f': false,
          ...(secondFactor ? { ':t': true } : {}),
        },
      }),
    );
    return true;
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error;
    return false;
  }
};

/** The refresh-token families of an account (revoked and expired ones too), without their secrets' hashes. */
export const familiesOf = async (
  accountId: string,
): Promise<Array<{ family: string; created_at: string; revoked: boolean; expires_at: string }>> =>
  (await familyItems(accountId)).map((item) => ({
    family: familyIdOf(item),
    created_at: String(item.created_at),
    revoked: Boolean(item.revoked),
    expires_at: new Date(Number(item.expires_at_epoch) * 1000).toISOString(),
  }));

/** Deletes a refresh-token family (the account's deletion). */
export const deleteFamily = async (family: string): Promise<void> => {
  await db.send(new DeleteCommand({ TableName: tableName(), Key: familyKey(family) }));
};
