import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '../db/document.ts';
import { db } from '../db/client.ts';
import { tableName } from '../db/table.ts';
import { UnauthorizedError } from '../http/errors.ts';
import { issueAccessToken } from './access-token.ts';
import type { SessionTokens } from './schemas.ts';
import { isConditionalCheckFailed } from '../db/transaction.ts';
import { queryAll } from '../db/query.ts';
import { isActiveAccount } from './account-repository.ts';

/**
 * Rotating refresh tokens with reuse detection. A refresh token is `<family id>.<secret>`; the
 * family item (PK `REFRESH#<family>`, SK `FAMILY`, TTL at its expiry) stores only the SHA-256 of
 * the current secret. Refreshing swaps the hash with a condition on the old one, so one token
 * can be used once; presenting an already-rotated token revokes the whole family (a stolen token
 * and its thief's successors die together). Logout revokes the family. The family carries GSI1
 * `REFRESH_OF#<account>` / `<created_at>#<family>`, so an account's families can be found (its
 * export and deletion, docs/accounts.md); a refresh is refused once the account is deleted
 * (a consistent GetItem of the account: the tombstone stops refreshes at once).
 */
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 3600;

const sha256 = (value: string) => createHash('sha256').update(value).digest('base64url');
const familyKey = (family: string) => ({ PK: `REFRESH#${family}`, SK: 'FAMILY' });
const newSecret = () => randomBytes(32).toString('base64url');

const parse = (token: string) => {
  const [family, secret] = token.split('.');
  if (!family || !secret || !/^[0-9a-f-]{36}$/.test(family))
    throw new UnauthorizedError('Invalid refresh token');
  return { family, secret };
};

/** The token pair a sign-in returns. */
export const issueSession = async (accountId: string, now: Date): Promise<SessionTokens> => {
  const family = randomUUID();
  const secret = newSecret();
  const expires = Math.floor(now.getTime() / 1000) + REFRESH_TOKEN_TTL_SECONDS;
  await db.send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...familyKey(family),
        GSI1PK: `REFRESH_OF#${accountId}`,
        GSI1SK: `${now.toISOString()}#${family}`,
        account_id: accountId,
        current: sha256(secret),
        revoked: false,
        created_at: now.toISOString(),
        expires_at_epoch: expires,
      },
    }),
  );
  const access = await issueAccessToken(accountId, now);
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
        UpdateExpression: 'SET #current = :next',
        ConditionExpression: '#current = :old AND revoked = :f',
        ExpressionAttributeNames: { '#current': 'current' },
        ExpressionAttributeValues: { ':next': sha256(next), ':old': sha256(secret), ':f': false },
      }),
    );
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error;
    // Lost a race with another use of the same token: that is reuse too.
    await revoke(family);
    throw new UnauthorizedError('Refresh token reuse detected: every session of this sign-in was revoked');
  }
  const access = await issueAccessToken(String(item.account_id), now);
  return {
    auth_token: access.token,
    token_expires_at: access.expiresAt,
    refresh_token: `${family}.${next}`,
    refresh_token_expires_at: new Date(Number(item.expires_at_epoch) * 1000).toISOString(),
  };
};

/** Revokes the family of a refresh token that belongs to `accountId` (logout). Idempotent. */
export const revokeSession = async (token: string, accountId: string): Promise<void> => {
  const { family } = parse(token);
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
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error;
  }
};

/** The refresh-token families of an account (revoked and expired ones too), without their secrets' hashes. */
export const familiesOf = async (
  accountId: string,
): Promise<Array<{ family: string; created_at: string; revoked: boolean; expires_at: string }>> =>
  (
    await queryAll({
      IndexName: 'GSI1',
      KeyConditionExpression: 'GSI1PK = :pk',
      ExpressionAttributeValues: { ':pk': `REFRESH_OF#${accountId}` },
    })
  ).map((item) => ({
    family: String(item.PK).slice('REFRESH#'.length),
    created_at: String(item.created_at),
    revoked: Boolean(item.revoked),
    expires_at: new Date(Number(item.expires_at_epoch) * 1000).toISOString(),
  }));

/** Deletes a refresh-token family (the account's deletion). */
export const deleteFamily = async (family: string): Promise<void> => {
  await db.send(new DeleteCommand({ TableName: tableName(), Key: familyKey(family) }));
};
