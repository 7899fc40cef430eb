import { GetCommand, PutCommand } from '../db/document.ts';
import { db } from '../db/client.ts';
import { tableName } from '../db/table.ts';
import { writeIf, writtenIf } from '../db/transaction.ts';

/**
 * The second factor's items (docs/accounts.md "Second factor"), both in the account's partition,
 * so the account's export and purge find them:
 * - the TOTP factor: PK `ACCOUNT#<id>`, SK `SECOND_FACTOR#TOTP`: the KMS-encrypted secret, its
 *   state (`pending` until a first code confirms it, with a TTL; then `active`), the last time step
 *   accepted (`last_step`: a code of that step or an earlier one is refused, RFC 6238 5.2) and the
 *   unused recovery codes' hashes (a string set: using one deletes it from the set on condition it
 *   is still there, so each works once);
 * - a sign-in challenge: PK `ACCOUNT#<id>`, SK `MFA_CHALLENGE#<challenge id>`: the SHA-256 of the
 *   challenge token's secret, the attempts spent (at most 5), the first factor it follows, a TTL.
 */
const accountPk = (accountId: string) => `ACCOUNT#${accountId}`;
const factorKey = (accountId: string) => ({ PK: accountPk(accountId), SK: 'SECOND_FACTOR#TOTP' });
const challengeKey = (accountId: string, id: string) => ({
  PK: accountPk(accountId),
  SK: `MFA_CHALLENGE#${id}`,
});
const epoch = (date: Date) => Math.floor(date.getTime() / 1000);

/** The TOTP factor as stored. */
export interface TotpFactor {
  account_id: string;
  factor_id: string;
  state: 'pending' | 'active';
  label: string;
  /** The secret, encrypted with KMS (shared/identity/totp-secret-box.ts), base64. */
  secret_ciphertext: string;
  created_at: string;
  confirmed_at?: string;
  last_used_at?: string;
  /** The last time step accepted. */
  last_step?: number;
  /** Hashes of the unused recovery codes (absent when all are used). */
  recovery_hashes?: Set<string>;
  /** Pending factors only: when the enrolment lapses (TTL). */
  expires_at_epoch?: number;
}

/** The account's TOTP factor (pending or active), read consistently. */
export const getTotpFactor = async (accountId: string): Promise<TotpFactor | undefined> => {
  const item = (
    await db.send(new GetCommand({ TableName: tableName(), Key: factorKey(accountId), ConsistentRead: true }))
  ).Item;
  if (!item) return undefined;
  const { PK: _pk, SK: _sk, entity: _entity, ...factor } = item;
  return factor as unknown as TotpFactor;
};

/** Writes a pending factor, replacing a pending one; false when an active factor exists. */
export const putPendingTotp = (factor: TotpFactor): Promise<boolean> =>
  writtenIf({
    Put: {
      Item: { ...factorKey(factor.account_id), entity: 'second_factor', ...factor },
      ConditionExpression: 'attribute_not_exists(PK) OR #state = :pending',
      ExpressionAttributeNames: { '#state': 'state' },
      ExpressionAttributeValues: { ':pending': 'pending' },
    },
  });

/**
 * Activates the pending factor `factorId` with its first accepted step and the recovery codes'
 * hashes; false when it is no longer pending, was replaced or lapsed.
 */
export const activateTotp = (
  accountId: string,
  factorId: string,
  step: number,
  recoveryHashes: readonly string[],
  now: Date,
): Promise<boolean> =>
  writtenIf({
    Update: {
      Key: factorKey(accountId),
      UpdateExpression:
        'SET #state = :active, confirmed_at = :now, last_used_at = :now, last_step = :step, recovery_hashes = :hashes REMOVE expires_at_epoch',
      ConditionExpression: '#state = :pending AND factor_id = :id AND expires_at_epoch > :epoch',
      ExpressionAttributeNames: { '#state': 'state' },
      ExpressionAttributeValues: {
        ':active': 'active',
        ':pending': 'pending',
        ':id': factorId,
        ':now': now.toISOString(),
        ':epoch': epoch(now),
        ':step': step,
        ':hashes': new Set(recoveryHashes),
      },
    },
  });

/**
 * Accepts time step `step` for the active factor: false when a code of this step (or a later one)
 * was accepted already (a replayed code) or the factor is gone.
 */
export const acceptStep = (accountId: string, step: number, now: Date): Promise<boolean> =>
  writtenIf({
    Update: {
      Key: factorKey(accountId),
      UpdateExpression: 'SET last_step = :step, last_used_at = :now',
      ConditionExpression: '#state = :active AND (attribute_not_exists(last_step) OR last_step < :step)',
      ExpressionAttributeNames: { '#state': 'state' },
      ExpressionAttributeValues: { ':active': 'active', ':step': step, ':now': now.toISOString() },
    },
  });

/** Uses the recovery code with hash `hash` once: false when it is not (or no longer) unused. */
export const useRecoveryCode = (accountId: string, hash: string, now: Date): Promise<boolean> =>
  writtenIf({
    Update: {
      Key: factorKey(accountId),
      UpdateExpression: 'DELETE recovery_hashes :set SET last_used_at = :now',
      ConditionExpression: '#state = :active AND contains(recovery_hashes, :hash)',
      ExpressionAttributeNames: { '#state': 'state' },
      ExpressionAttributeValues: {
        ':active': 'active',
        ':set': new Set([hash]),
        ':hash': hash,
        ':now': now.toISOString(),
      },
    },
  });

/**
 * Replaces the recovery codes of `factor` (as read) with `recoveryHashes`, whole, on condition it
 * is still that factor, active, holding the set it held when read: false otherwise (removed or
 * enrolled again, a code used, or another replacement meanwhile), and nothing written. So of two
 * replacements of one read at most one is written, and a set is never a mix of two.
 */
export const replaceRecoveryCodes = (
  factor: TotpFactor,
  recoveryHashes: readonly string[],
): Promise<boolean> => {
  const read = factor.recovery_hashes;
  const held = read && read.size > 0;
  return writtenIf({
    Update: {
      Key: factorKey(factor.account_id),
      UpdateExpression: 'SET recovery_hashes = :hashes',
      ConditionExpression: `#state = :active AND factor_id = :id AND ${held ? 'recovery_hashes = :read' : 'attribute_not_exists(recovery_hashes)'}`,
      ExpressionAttributeNames: { '#state': 'state' },
      ExpressionAttributeValues: {
        ':active': 'active',
        ':id': factor.factor_id,
        ':hashes': new Set(recoveryHashes),
        ...(held ? { ':read': read } : {}),
      },
    },
  });
};

/**
 * Removes the account's TOTP factor and its recovery codes: a pending one always, an active one
 * only when its id is `passedFactorId` (the factor the caller's sign-in or step-up passed: one
 * removed and enrolled again since is another). One conditional delete:
 * `removed` (an active factor), `abandoned` (an enrolment never confirmed), `none` (no factor:
 * nothing written) or `active` (an active factor the caller has not passed: nothing written).
 */
export const deleteTotpFactor = async (
  accountId: string,
  passedFactorId: string | undefined,
): Promise<'removed' | 'abandoned' | 'none' | 'active'> => {
  const outcome = await writeIf({
    Delete: {
      Key: factorKey(accountId),
      ReturnValues: 'ALL_OLD',
      ConditionExpression: 'attribute_exists(PK) AND (#state <> :active OR factor_id = :passed)',
      ExpressionAttributeNames: { '#state': 'state' },
      // No id passed: one no factor has (ids are 12 hex digits).
      ExpressionAttributeValues: { ':active': 'active', ':passed': passedFactorId ?? '-' },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  });
  if (outcome.written) return outcome.attributes?.state === 'active' ? 'removed' : 'abandoned';
  return outcome.item ? 'active' : 'none';
};

// ── Sign-in challenges ───────────────────────────────────────────────────────────────────────

/** A sign-in waiting for its second factor. */
export interface SignInChallenge {
  account_id: string;
  challenge_id: string;
  secret_hash: string;
  attempts: number;
  /** The first factor it follows (`password`, `google`). */
  first_factor: string;
  /** After a password: the account's `password_changed_at` when it was checked (absent: never changed). */
  password_changed_at?: string;
  /** The account's `sign_out_count` at the first factor (absent: none, or a challenge from before it existed). */
  sign_out_count?: number;
  expires_at_epoch: number;
}

export const putChallenge = (challenge: SignInChallenge): Promise<unknown> =>
  db.send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...challengeKey(challenge.account_id, challenge.challenge_id),
        entity: 'mfa_challenge',
        ...challenge,
      },
      ConditionExpression: 'attribute_not_exists(PK)',
    }),
  );

/**
 * Spends one of the challenge's attempts before its code is checked (one conditional UpdateItem,
 * so parallel guesses share the budget): the challenge after the increment, or undefined when it
 * is unknown, expired, used, out of attempts or the secret is not its own.
 */
export const spendChallengeAttempt = async (
  accountId: string,
  challengeId: string,
  secretHash: string,
  maxAttempts: number,
  now: Date,
): Promise<SignInChallenge | undefined> => {
  const outcome = await writeIf({
    Update: {
      Key: challengeKey(accountId, challengeId),
      UpdateExpression: 'ADD attempts :one',
      ConditionExpression:
        'attribute_exists(PK) AND secret_hash = :hash AND attempts < :max AND expires_at_epoch > :now',
      ExpressionAttributeValues: {
        ':one': 1,
        ':hash': secretHash,
        ':max': maxAttempts,
        ':now': epoch(now),
      },
      ReturnValues: 'ALL_NEW',
    },
  });
  if (!outcome.written) return undefined;
  const { PK: _pk, SK: _sk, entity: _entity, ...challenge } = outcome.attributes ?? {};
  return challenge as unknown as SignInChallenge;
};

/** Uses the challenge once (deleted on condition it is still this one): false when it was used meanwhile. */
export const consumeChallenge = (
  accountId: string,
  challengeId: string,
  secretHash: string,
): Promise<boolean> =>
  writtenIf({
    Delete: {
      Key: challengeKey(accountId, challengeId),
      ConditionExpression: 'secret_hash = :hash',
      ExpressionAttributeValues: { ':hash': secretHash },
    },
  });
