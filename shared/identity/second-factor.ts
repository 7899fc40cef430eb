import { randomBytes } from 'node:crypto';
import { type Principal, STEP_UP_MAX_AGE_SECONDS } from './principal.ts';
import {
  BadRequestError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
  StepUpRequiredError,
  TooManyRequestsError,
  ValidationError,
} from '../errors/errors.ts';
import { recordMetric } from '../observability/index.ts';
import { issueAccessToken } from './access-token.ts';
import { getAccount, requireLiveAccount, type SignInBasis } from './account-repository.ts';
import { ChallengeGoneError, MAX_CHALLENGE_ATTEMPTS, parseChallengeToken } from './mfa-challenge.ts';
import { accountView } from './onboarding.ts';
import { notifyAccount } from './account-notice.ts';
import { requireLiveSession } from './live-session.ts';
import { issueSession, renewAuthTime } from './refresh-tokens.ts';
import type { SignedInAccount } from './schemas.ts';
import type {
  CompleteMfaSignInBody,
  RecoveryCodesRenewed,
  TotpConfirmed,
  TotpEnrolment,
} from './second-factor-schemas.ts';
import {
  acceptStep,
  activateTotp,
  consumeChallenge,
  deleteTotpFactor,
  getTotpFactor,
  putPendingTotp,
  replaceRecoveryCodes,
  spendChallengeAttempt,
  type TotpFactor,
  useRecoveryCode,
} from './second-factor-repository.ts';
import { factorView } from './second-factor-view.ts';
import { takeSecondFactorTry } from './reset-limit-repository.ts';
import { base32Of, matchingStep, newTotpSecret, otpauthUri } from './totp.ts';
import { newRecoveryCodes, recoveryCodeAsStored } from './recovery-codes.ts';
import { decryptTotpSecret, encryptTotpSecret } from './totp-secret-box.ts';

/**
 * The TOTP second factor's use cases (docs/accounts.md "Second factor"): enrolment (a pending
 * factor, confirmed by a first code, which answers the recovery codes), new recovery codes, removal, the code checks
 * sign-in and step-up share, and the end of a challenged sign-in (`POST /auth/mfa`).
 */

/** Minutes a started enrolment waits for its confirmation. */
const ENROLMENT_TTL_SECONDS = 15 * 60;
const epoch = (date: Date) => Math.floor(date.getTime() / 1000);

const ENROL_AGAIN =
  'No TOTP enrolment to confirm (none was started, or it lapsed after 15 minutes): start one with POST /me/mfa/totp';

/**
 * `POST /me/mfa/totp` (step-up): a new secret, encrypted with KMS, kept as a pending factor for 15
 * minutes; the answer is the only time the secret leaves the service. 409 with an active factor;
 * 401 for a signed-out session's token (it would replace the owner's enrolment under way).
 */
export const enrolTotp = async (
  caller: Principal,
  label: string | undefined,
  now: Date,
): Promise<TotpEnrolment> => {
  const [account] = await Promise.all([
    requireLiveAccount(caller.accountId),
    requireLiveSession(caller, now),
  ]);
  const active = new ConflictError(
    'A TOTP authenticator is enrolled already: remove it first (DELETE /me/mfa/totp) to enrol another',
  );
  if ((await getTotpFactor(account.account_id))?.state === 'active') throw active;
  const secret = newTotpSecret();
  const expires = epoch(now) + ENROLMENT_TTL_SECONDS;
  const factorId = randomBytes(6).toString('hex');
  const stored = await putPendingTotp({
    account_id: account.account_id,
    factor_id: factorId,
    state: 'pending',
    label: label ?? 'Authenticator app',
    secret_ciphertext: await encryptTotpSecret(account.account_id, secret),
    created_at: now.toISOString(),
    expires_at_epoch: expires,
  });
  if (!stored) throw active;
  return {
    factor_id: factorId,
    secret: base32Of(secret),
    otpauth_uri: otpauthUri(secret, account.email),
    expires_at: new Date(expires * 1000).toISOString(),
  };
};

/**
 * `POST /me/mfa/totp/confirm`: the first code activates the pending factor (its time step is the
 * first accepted) and the answer carries 10 recovery codes (only their MACs are kept) and an
 * access token of the caller's sign-in that carries the second factor.
 */
export const confirmTotp = async (caller: Principal, code: string, now: Date): Promise<TotpConfirmed> => {
  // A deleted account (its purge waits out the access tokens it has) gets no fresh token, nor
  // does a signed-out session (its access token only lapses).
  const [, factor] = await Promise.all([
    requireLiveAccount(caller.accountId),
    getTotpFactor(caller.accountId),
    requireLiveSession(caller, now),
  ]);
  if (factor?.state === 'active') throw new ConflictError('This TOTP authenticator is confirmed already');
  if (!factor || (factor.expires_at_epoch ?? 0) <= epoch(now)) throw new NotFoundError(ENROL_AGAIN);
  const step = matchingStep(await decryptTotpSecret(caller.accountId, factor.secret_ciphertext), code, now);
  if (step === undefined)
    throw new BadRequestError(
      'Incorrect code: enter the code the authenticator app shows now (check that the phone’s clock is set automatically)',
    );
  const { codes, stored } = await newRecoveryCodes(caller.accountId);
  if (!(await activateTotp(caller.accountId, factor.factor_id, step, stored, now)))
    throw new NotFoundError(ENROL_AGAIN);
  const authTime = caller.authTime === undefined ? now : new Date(caller.authTime * 1000);
  if (caller.sessionId) await renewAuthTime(caller.accountId, caller.sessionId, authTime, factor.factor_id);
  const access = await issueAccessToken(caller.accountId, now, {
    authTime,
    sessionId: caller.sessionId,
    secondFactor: true,
    factorId: factor.factor_id,
  });
  recordMetric('second_factors_enrolled');
  return {
    factor: factorView({
      ...factor,
      confirmed_at: now.toISOString(),
      last_used_at: now.toISOString(),
      recovery_hashes: new Set(stored),
    }),
    recovery_codes: codes,
    auth_token: access.token,
    token_expires_at: access.expiresAt,
  };
};

/**
 * `POST /me/mfa/totp/recovery-codes` (step-up, and the handler's `assertFactorPassed`: the token
 * passed the factor): 10 new keyed codes replace the whole set of the active factor in one
 * conditional write (still this factor, active, holding the set read), so the old codes stop
 * working at once and two regenerations of one read never both succeed (409 for the later). Like
 * the confirmation it answers codes to the caller's session, so a signed-out one gets none (401,
 * the handler's `assertFactorPassed`), nor does a deleted account (404).
 */
export const regenerateRecoveryCodes = async (caller: Principal): Promise<RecoveryCodesRenewed> => {
  const [account, factor] = await Promise.all([
    requireLiveAccount(caller.accountId),
    getTotpFactor(caller.accountId),
  ]);
  if (factor?.state !== 'active') throw new NotFoundError('No second factor is enrolled');
  const { codes, stored } = await newRecoveryCodes(caller.accountId);
  if (!(await replaceRecoveryCodes(factor, stored)))
    throw new ConflictError(
      'The recovery codes changed while new ones were made (another regeneration, a code used, or the authenticator removed): check GET /me and retry',
    );
  recordMetric('recovery_codes_regenerated');
  // The owner hears of it, as of the factor's removal: whoever holds the new codes can sign in in
  // place of the authenticator (and the owner's own printed codes stopped working).
  await notifyAccount(
    account.email,
    'New recovery codes were made',
    'The recovery codes of your account were replaced with new ones: the old codes no longer work. If this was not you, reset your password at once (it signs out every device), then remove and add your authenticator again, and contact support.',
  );
  return { recovery_codes: codes, factor: factorView({ ...factor, recovery_hashes: new Set(stored) }) };
};

/**
 * `DELETE /me/mfa/totp` (step-up): removes the factor and its recovery codes; 404 without one. An
 * active factor goes only for a token that passed it (`mfa_factor` is its id: a sign-in through
 * it, its confirmation, or a step-up with its code), else 401 `step_up_required`: a token of a
 * sign-in from before the enrolment, or one that passed a factor since removed, is recent enough
 * for the middleware, yet proves nothing about this factor.
 * A signed-out session's token removes nothing (401, `requireLiveSession`).
 */
export const removeTotp = async (caller: Principal, now: Date): Promise<void> => {
  await requireLiveSession(caller, now);
  const outcome = await deleteTotpFactor(caller.accountId, caller.secondFactorId);
  if (outcome === 'none') throw new NotFoundError('No second factor is enrolled');
  if (outcome === 'active') throw new StepUpRequiredError(STEP_UP_MAX_AGE_SECONDS);
  if (outcome === 'abandoned') return;
  recordMetric('second_factors_removed');
  // The owner hears of it, as of a password or address change: a session that passed the factor
  // could be someone else's, and sign-in no longer asks for the code.
  const account = await getAccount(caller.accountId);
  if (account)
    await notifyAccount(
      account.email,
      'Two-step verification was turned off',
      'The authenticator app was removed from your account, with its recovery codes: signing in no longer asks for a code. If this was not you, reset your password at once (it signs out every device) and contact support.',
    );
};

/** A second-factor proof: a current code or one recovery code. */
export interface SecondFactorProof {
  code?: string;
  recovery_code?: string;
}

/**
 * Checks `proof` against the account's active factor: `ok` (the code's step is recorded as used,
 * or the recovery code is spent), `wrong`, or `replayed` (a correct code of a step already used).
 */
export const checkSecondFactor = async (
  factor: TotpFactor,
  proof: SecondFactorProof,
  now: Date,
): Promise<'ok' | 'wrong' | 'replayed'> => {
  if (proof.recovery_code !== undefined) {
    // In the form of the stored set: keyed (MAC) for a set made since 2026-11-30, SHA-256 before.
    const form = await recoveryCodeAsStored(factor.account_id, factor.recovery_hashes, proof.recovery_code);
    return form !== undefined && (await useRecoveryCode(factor.account_id, form, now)) ? 'ok' : 'wrong';
  }
  if (proof.code === undefined) return 'wrong';
  const secret = await decryptTotpSecret(factor.account_id, factor.secret_ciphertext);
  const step = matchingStep(secret, proof.code, now);
  if (step === undefined) return 'wrong';
  return (await acceptStep(factor.account_id, step, now)) ? 'ok' : 'replayed';
};

/**
 * Step-up's second factor (`POST /auth/step-up`, after the password): none needed (undefined)
 * when the account has no active factor; else a code or a recovery code must pass (403
 * otherwise), and the step-up then carries the second factor: its id.
 */
export const stepUpSecondFactor = async (accountId: string, proof: SecondFactorProof, now: Date) => {
  if (proof.code !== undefined && proof.recovery_code !== undefined)
    throw new ValidationError([{ field: 'code', message: 'send code or recovery_code, not both' }]);
  const factor = await getTotpFactor(accountId);
  if (factor?.state !== 'active') return undefined;
  if (proof.code === undefined && proof.recovery_code === undefined)
    throw new ForbiddenError(
      'This account has a second factor: send the code from the authenticator app (`code`) or a recovery code with the password',
    );
  const outcome = await checkSecondFactor(factor, proof, now);
  if (outcome === 'replayed') throw new ForbiddenError('This code was used already: wait for the next one');
  if (outcome === 'wrong') throw new ForbiddenError('Code is incorrect');
  recordMetric('step_ups_second_factor');
  return factor.factor_id;
};

/**
 * Second-factor submissions an account may make in a window, across its sign-in challenges (each
 * allows MAX_CHALLENGE_ATTEMPTS; whoever has the password can start any number of them, from any
 * number of addresses). As many as step-up allows an account (`POST /auth/step-up`'s row).
 */
export const MFA_TRIES_PER_WINDOW = 10;
export const MFA_TRIES_WINDOW_SECONDS = 15 * 60;

/**
 * `POST /auth/mfa`: the second step of a challenged sign-in. Each submission spends one of the
 * challenge's 5 attempts first, then one of the account's MFA_TRIES_PER_WINDOW (429 past it); a correct code (of a step not used before) or an unused recovery
 * code uses the challenge once and answers the sign-in's tokens, which carry the second factor.
 */
export const completeMfaSignIn = async (
  body: CompleteMfaSignInBody,
  now: Date,
  userAgent?: string,
): Promise<SignedInAccount> => {
  const { accountId, challengeId, secretHash } = parseChallengeToken(body.challenge_token);
  const challenge = await spendChallengeAttempt(
    accountId,
    challengeId,
    secretHash,
    MAX_CHALLENGE_ATTEMPTS,
    now,
  );
  if (!challenge) throw new ChallengeGoneError();
  // The account's budget, across its challenges: whoever has the password can start many.
  const wait = await takeSecondFactorTry(accountId, MFA_TRIES_PER_WINDOW, MFA_TRIES_WINDOW_SECONDS, now);
  if (wait !== undefined)
    throw new TooManyRequestsError(
      'Too many second-factor codes for this account: retry after Retry-After',
      'rate_limit',
      { 'retry-after': String(wait) },
    );
  const [account, factor] = await Promise.all([getAccount(accountId), getTotpFactor(accountId)]);
  if (!account || account.deleted_at || factor?.state !== 'active') throw new ChallengeGoneError();
  const outcome = await checkSecondFactor(factor, body, now);
  if (outcome !== 'ok') {
    recordMetric('mfa_failures');
    const left = MAX_CHALLENGE_ATTEMPTS - challenge.attempts;
    const tries = `${left} attempt${left === 1 ? '' : 's'} left`;
    throw new BadRequestError(
      outcome === 'replayed'
        ? `This code was used already: wait for the next one (${tries})`
        : `Incorrect ${body.recovery_code === undefined ? 'code' : 'recovery code'}: ${tries}`,
    );
  }
  if (!(await consumeChallenge(accountId, challengeId, secretHash))) throw new ChallengeGoneError();
  recordMetric(body.recovery_code === undefined ? 'mfa_sign_ins' : 'mfa_recovery_sign_ins');
  // The account as the first factor read it: a sign-out everywhere or a password change since
  // the challenge refuses the session (401).
  const basis: SignInBasis = {
    signOutCount: challenge.sign_out_count,
    ...(challenge.first_factor === 'password'
      ? { password: { changedAt: challenge.password_changed_at } }
      : {}),
  };
  return {
    ...accountView(account),
    ...(await issueSession(accountId, basis, now, userAgent, factor.factor_id)),
  };
};
