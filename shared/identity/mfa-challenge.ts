import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { UnauthorizedError } from '../errors/errors.ts';
import { recordMetric } from '../observability/index.ts';
import type { SignInBasis } from './account-repository.ts';
import { issueSession } from './refresh-tokens.ts';
import type { SessionTokens } from './schemas.ts';
import type { MfaChallenge } from './second-factor-schemas.ts';
import { getTotpFactor, putChallenge } from './second-factor-repository.ts';

/**
 * The step between the first factor and the second (docs/accounts.md "Second factor"). Once an
 * account has an active factor, a correct password (or Google token) answers a challenge instead
 * of tokens: an opaque `<account id>.<challenge id>.<secret>` valid CHALLENGE_TTL_SECONDS, whose
 * item keeps only the secret's SHA-256 and spends one of MAX_CHALLENGE_ATTEMPTS per submission.
 * This module is what the sign-in functions bundle: it never decrypts a secret.
 */
export const CHALLENGE_TTL_SECONDS = 5 * 60;
export const MAX_CHALLENGE_ATTEMPTS = 5;

const sha256 = (value: string) => createHash('sha256').update(value).digest('base64url');
const epoch = (date: Date) => Math.floor(date.getTime() / 1000);

/** A challenge token's parts, with the hash its item keeps; 401 when it is not shaped like one. */
export const parseChallengeToken = (token: string) => {
  const [accountId, challengeId, secret, ...rest] = token.trim().split('.');
  if (!accountId || !challengeId || !secret || rest.length > 0 || !/^[0-9a-f-]{36}$/.test(challengeId))
    throw new ChallengeGoneError();
  return { accountId, challengeId, secretHash: sha256(secret) };
};

/** 401: the challenge is unknown, expired, used or out of attempts: sign in again. */
export class ChallengeGoneError extends UnauthorizedError {
  constructor() {
    super(
      'This sign-in challenge expired, was used or had too many wrong codes: sign in again (POST /auth/login)',
    );
  }
}

/** Either the sign-in's tokens or, for an account with a second factor, the challenge to answer. */
export type SignInOutcome = { tokens: SessionTokens } | { challenge: MfaChallenge };

/**
 * After a correct first factor (a password, or Google: `basis` says which, with the account as it
 * read it): the tokens when the account has no active second factor, else a new challenge (no
 * tokens), which keeps the basis for the session its completion stores.
 */
export const signInOrChallenge = async (
  accountId: string,
  basis: SignInBasis,
  now: Date,
  userAgent?: string,
): Promise<SignInOutcome> => {
  const factor = await getTotpFactor(accountId);
  if (factor?.state !== 'active') return { tokens: await issueSession(accountId, basis, now, userAgent) };
  const challengeId = randomUUID();
  const secret = randomBytes(32).toString('base64url');
  const expires = epoch(now) + CHALLENGE_TTL_SECONDS;
  await putChallenge({
    account_id: accountId,
    challenge_id: challengeId,
    secret_hash: sha256(secret),
    attempts: 0,
    first_factor: basis.password ? 'password' : 'google',
    ...(basis.password?.changedAt ? { password_changed_at: basis.password.changedAt } : {}),
    ...(basis.signOutCount !== undefined ? { sign_out_count: basis.signOutCount } : {}),
    expires_at_epoch: expires,
  });
  recordMetric('mfa_challenges');
  return {
    challenge: {
      mfa_required: true,
      challenge_token: `${accountId}.${challengeId}.${secret}`,
      challenge_expires_at: new Date(expires * 1000).toISOString(),
      methods: ['totp', 'recovery_code'],
    },
  };
};
