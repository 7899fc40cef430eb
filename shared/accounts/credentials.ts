import type { Principal } from '../identity/principal.ts';
import { notifyAccount } from '../identity/account-notice.ts';
import { ConflictError, ForbiddenError, NotFoundError } from '../errors/errors.ts';
import { recordMetric } from '../observability/index.ts';
import {
  type Account,
  changePasswordHash,
  emailChangeOperations,
  requireLiveAccount,
  isEmailTaken,
  normalizeEmail,
} from '../identity/account-repository.ts';
import type {
  ChangeEmailBody,
  ChangePasswordBody,
  EmailChanged,
  EmailChangeStarted,
  Sessions,
  SessionsRevoked,
} from '../identity/account-schemas.ts';
import { assertUncommonPassword } from '../identity/common-passwords.ts';
import {
  codeMatches,
  IncorrectCodeError,
  newVerificationCode,
  VERIFICATION_CODE_TTL_SECONDS,
  VERIFICATION_MAX_ATTEMPTS,
  VerificationCodeGoneError,
} from '../identity/email-verification.ts';
import {
  consumeVerificationCode,
  dropVerificationCode,
  saveVerificationCode,
  spendAttempt,
} from '../identity/email-verification-repository.ts';
import { requireLiveSession } from '../identity/live-session.ts';
import { DUMMY_PASSWORD_HASH, hashPassword, verifyPassword } from '../identity/password.ts';
import { listSessions, revokeFamily, sessionOfRefreshToken } from '../identity/refresh-tokens.ts';
import { endChatConnections } from './end-chat.ts';
import { signOutEverywhere } from './sign-out-everywhere.ts';

/**
 * What a signed-in person does with their own credentials (docs/accounts.md): password change,
 * email change, and their signed-in devices (step-up: step-up.ts). Sensitive routes (password,
 * email) also need a recent sign-in (shared/http/middleware/step-up.ts), and the current password on top.
 */

const NO_PASSWORD =
  'This account signs in with Google and has no password: set one with POST /auth/password/forgot';

/**
 * The account, once `password` is checked against it: 409 when it has none (Google only; a dummy
 * hash is checked anyway, so the answer takes the same time), 403 when it is wrong. The handlers
 * of these step-up routes found the caller's session still signed in first (`assertFactorPassed`).
 */
const withPassword = async (caller: Principal, password: string, field: string) => {
  const account = await requireLiveAccount(caller.accountId);
  const valid = await verifyPassword(password, account.password_hash ?? DUMMY_PASSWORD_HASH);
  if (!account.password_hash) throw new ConflictError(NO_PASSWORD);
  if (!valid) throw new ForbiddenError(`${field} is incorrect`);
  return account as Account & { password_hash: string };
};

/**
 * `POST /me/password`: current password checked, new one not common, then a pending reset code is
 * dropped (it must not set another password over this one), every other session of the account
 * is signed out (the caller's stays) and the address gets a notice.
 */
export const changePassword = async (
  caller: Principal,
  body: ChangePasswordBody,
  now: Date,
): Promise<SessionsRevoked> => {
  await assertUncommonPassword(body.new_password, 'new_password');
  const account = await withPassword(caller, body.current_password, 'current_password');
  await changePasswordHash(
    account.account_id,
    account.password_hash,
    await hashPassword(body.new_password),
    now,
  );
  await dropVerificationCode(account.account_id, 'PASSWORD_RESET');
  const revoked = await signOutEverywhere(account.account_id, now, caller.sessionId);
  await notifyAccount(
    account.email,
    'Your password was changed',
    'The password of your account was just changed, and your other devices were signed out. If this was not you, reset your password now (POST /auth/password/forgot) and contact support.',
  );
  recordMetric('password_changes');
  return { sessions_revoked: revoked };
};

/**
 * `POST /me/email`: current password checked, the new address free; a 6-digit code (15 minutes,
 * 5 attempts) is mailed to the new address, replacing any earlier one. Nothing changes yet.
 */
export const startEmailChange = async (
  caller: Principal,
  body: ChangeEmailBody,
  now: Date,
): Promise<EmailChangeStarted> => {
  const account = await withPassword(caller, body.current_password, 'current_password');
  const newEmail = normalizeEmail(body.new_email);
  if (newEmail === account.email) throw new ConflictError('This is already the account’s address');
  if (await isEmailTaken(newEmail)) throw new ConflictError('Email already registered');
  const { code, record } = await newVerificationCode(account.account_id, newEmail, now, {
    purpose: 'EMAIL_CHANGE',
  });
  await saveVerificationCode(record);
  await notifyAccount(
    newEmail,
    'Confirm your new email address',
    `Your code to confirm this address is ${code}. It expires in ${VERIFICATION_CODE_TTL_SECONDS / 60} minutes. If you did not ask to change your email, ignore this message.`,
  );
  return {
    new_email: newEmail,
    expires_at: new Date(record.expires_at_epoch * 1000).toISOString(),
    max_attempts: VERIFICATION_MAX_ATTEMPTS,
  };
};

/**
 * `POST /me/email/verify`: the code from the new address moves the account to it (one transaction
 * with both markers) and a notice goes to the old address. 409 when another account took the new
 * address meanwhile; 401 for a signed-out session's token (before any attempt is spent).
 */
export const confirmEmailChange = async (
  caller: Principal,
  code: string,
  now: Date,
): Promise<EmailChanged> => {
  const RESEND = 'POST /me/email';
  const { accountId } = caller;
  await requireLiveSession(caller, now);
  const record = await spendAttempt(accountId, VERIFICATION_MAX_ATTEMPTS, now, 'EMAIL_CHANGE');
  if (!record) throw new VerificationCodeGoneError(RESEND);
  if (!(await codeMatches(record, code)))
    throw new IncorrectCodeError(VERIFICATION_MAX_ATTEMPTS - record.attempts, RESEND);
  const account = await requireLiveAccount(accountId);
  const used = await consumeVerificationCode(
    record,
    emailChangeOperations(accountId, account.email, record.email, now),
  );
  if (!used) {
    if (await isEmailTaken(record.email)) throw new ConflictError('Email already registered');
    throw new VerificationCodeGoneError(RESEND);
  }
  await notifyAccount(
    account.email,
    'Your email address was changed',
    `The sign-in address of your account was changed to ${record.email}. If this was not you, contact support at once.`,
  );
  recordMetric('email_changes');
  return { email: record.email, email_verified: true };
};

/** `GET /me/sessions`: the caller's usable sign-ins, the current one marked. */
export const mySessions = async (caller: Principal, now: Date): Promise<Sessions> => ({
  sessions: (await listSessions(caller.accountId, now)).map((s) => ({
    ...s,
    current: s.id === caller.sessionId,
  })),
});

/**
 * Signs out one session (refresh family) `id` of the account: revoked, and once it is, its chat
 * connections end (then rechecked), so it gets no new chat token meanwhile; false (nothing done)
 * when no session of the account has this id. The sign-out routes have no request budget, so that
 * whoever else holds a session of the account cannot spend it and keep the owner from signing
 * them out; their chat passes have one (`budgeted`).
 */
const signOut = async (accountId: string, id: string, now: Date): Promise<boolean> => {
  if (!(await revokeFamily(accountId, id))) return false;
  await endChatConnections(accountId, now, 'sessionSignedOut', { only: id }, { budgeted: true });
  return true;
};

/** `DELETE /me/sessions/{id}`: one of the caller's sessions signed out (`signOut`); 404 unless it is the caller's. */
export const signOutSession = async (caller: Principal, id: string, now: Date): Promise<void> => {
  if (!(await signOut(caller.accountId, id, now))) throw new NotFoundError('Session not found');
};

/**
 * `POST /auth/logout`: the refresh token's session signed out (`signOut`) if it is the caller's;
 * nothing otherwise (idempotent, and it tells no one whose a token is).
 */
export const logOut = async (caller: Principal, refreshToken: string, now: Date): Promise<void> => {
  await signOut(caller.accountId, sessionOfRefreshToken(refreshToken), now);
};

/** `DELETE /me/sessions`: every session but the caller's own, and every chat connection (signOutEverywhere). */
export const signOutOtherSessions = async (caller: Principal, now: Date): Promise<SessionsRevoked> => ({
  sessions_revoked: await signOutEverywhere(caller.accountId, now, caller.sessionId, { budgeted: true }),
});
