import { createHash } from 'node:crypto';
import { endOpenSessionsOf } from '../audience/session-repository.ts';
import { getMailer } from '../mail/mailer.ts';
import { logger, recordMetric } from '../observability/index.ts';
import {
  type Account,
  getAccountByEmail,
  normalizeEmail,
  passwordResetUpdate,
} from '../identity/account-repository.ts';
import {
  RESET_CODE_DIGITS,
  type ResetPasswordBody,
  type ResetRequested,
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
  saveVerificationCode,
  spendAttempt,
} from '../identity/email-verification-repository.ts';
import { hashPassword } from '../identity/password.ts';
import { enqueueAccountJob } from './jobs.ts';
import { signOutEverywhere } from './sign-out-everywhere.ts';
import { takeResetAllowance } from '../identity/reset-limit-repository.ts';

/**
 * Password recovery (docs/accounts.md, "Recovery"), after OWASP's Forgot Password cheat sheet:
 * - `POST /auth/password/forgot` answers 202 with one body for every address, and does the same
 *   work for every address: it only queues a `password-reset` job (the account jobs queue). The
 *   job (`sendPasswordReset`, in the account jobs worker) looks the address up, takes one from its
 *   daily budget, draws and MACs a code and stores it, and mails it if an account uses the
 *   address: none of that, the mail least of all, delays or shapes the answer.
 * - a code is 8 random digits, stored only as a keyed MAC (the one-time-code item, purpose
 *   `PASSWORD_RESET`), valid 15 minutes, compared in constant time after an attempt is spent,
 *   locked after 5 wrong tries, used once; at most RESET_DAILY_LIMIT mails a day per address.
 * - an address without an account (or a deleted one's) gets a **decoy** code from the job,
 *   stored as a real one is (under `ACCOUNT#decoy_<SHA-256 of the address>`, `decoyHolder`; no
 *   address in it) but never mailed and never accepted: `POST /auth/password/reset` then spends its attempts and
 *   answers as for a registered address with a wrong code (400 with the attempts left, then 410),
 *   with the same DynamoDB calls, so the answers do not tell whether the address is registered.
 * - `POST /auth/password/reset` sets the password (and marks the address verified: the code
 *   proved it), then revokes every refresh-token family of the account and ends its open watch
 *   sessions.
 */
export const RESET_DAILY_LIMIT = 3;
const RESEND = 'POST /auth/password/forgot';
const WHAT = 'reset code';

export const RESET_REQUESTED: ResetRequested = {
  message: `If an account uses this address, a code to reset its password is on its way. It expires in ${VERIFICATION_CODE_TTL_SECONDS / 60} minutes.`,
};

const mailResetCode = async (email: string, code: string): Promise<void> => {
  try {
    await getMailer().send({
      to: email,
      subject: 'Reset your password',
      text: `Your password reset code is ${code}. It expires in ${VERIFICATION_CODE_TTL_SECONDS / 60} minutes and works once. If you did not ask to reset your password, ignore this message: your password has not changed.`,
    });
    recordMetric('password_reset_emails_sent');
  } catch (error) {
    // Logged by name only (never the code or the address), and not retried: a run again would
    // spend one more of the address's budget; the owner asks again.
    logger.error('Password reset email not sent', { error: error instanceof Error ? error.name : 'unknown' });
    recordMetric('password_reset_emails_failed');
  }
};

/** A deleted account (its purge pending) recovers nothing: it is answered as an unknown address. */
const usable = (account: Account | undefined) => (account?.deleted_at === undefined ? account : undefined);

/** Who holds the reset code of an address without a usable account: a decoy no account is. */
const decoyHolder = (email: string) =>
  `decoy_${createHash('sha256').update(normalizeEmail(email)).digest('base64url')}`;

/** Whose reset code `email`'s is: its account's, or the address's decoy. */
const holderOf = (account: Account | undefined, email: string) => account?.account_id ?? decoyHolder(email);

/**
 * The work a `POST /auth/password/forgot` asks for (the account jobs worker's `password-reset`
 * job): the same calls whether or not `email` has an account, but the mail.
 */
export const sendPasswordReset = async (email: string, now: Date): Promise<void> => {
  const account = usable(await getAccountByEmail(email));
  const allowed = await takeResetAllowance(email, RESET_DAILY_LIMIT, now);
  // A decoy keeps no address: only its key names one, by SHA-256, for the item's 15 minutes.
  const { code, record } = await newVerificationCode(
    holderOf(account, email),
    account ? account.email : '',
    now,
    {
      digits: RESET_CODE_DIGITS,
      purpose: 'PASSWORD_RESET',
    },
  );
  if (!allowed) {
    if (account) recordMetric('password_reset_limited');
    return;
  }
  await saveVerificationCode(record);
  if (account) await mailResetCode(account.email, code);
};

/**
 * `POST /auth/password/forgot`: queues the work and answers the same 202 body for every address.
 * Nothing on this path depends on the address, so neither does the answer's time.
 */
export const requestPasswordReset = async (email: string): Promise<ResetRequested> => {
  await enqueueAccountJob({ kind: 'password-reset', email });
  return RESET_REQUESTED;
};

/**
 * `POST /auth/password/reset`: 410 when there is no usable code for the address (none sent,
 * expired, used, locked), 400 for a wrong code (with the attempts left), 422 for a common
 * password. An address without an account is answered the same, its decoy code standing in (it
 * never matches).
 */
export const resetPassword = async (input: ResetPasswordBody, now: Date): Promise<void> => {
  await assertUncommonPassword(input.new_password, 'new_password');
  const account = usable(await getAccountByEmail(input.email));
  const record = await spendAttempt(
    holderOf(account, input.email),
    VERIFICATION_MAX_ATTEMPTS,
    now,
    'PASSWORD_RESET',
  );
  if (!record || (account && record.email !== account.email))
    throw new VerificationCodeGoneError(RESEND, WHAT);
  const matches = await codeMatches(record, input.code);
  if (!account || !matches)
    throw new IncorrectCodeError(VERIFICATION_MAX_ATTEMPTS - record.attempts, RESEND, WHAT);
  const hash = await hashPassword(input.new_password);
  const used = await consumeVerificationCode(
    record,
    passwordResetUpdate(account.account_id, record.email, hash, now),
  );
  if (!used) throw new VerificationCodeGoneError(RESEND, WHAT);
  const [sessions, watching] = await Promise.all([
    signOutEverywhere(account.account_id, now),
    endOpenSessionsOf(account.account_id, now),
  ]);
  recordMetric('password_resets');
  logger.info('Password reset', { sessionsRevoked: sessions, watchSessionsEnded: watching });
};
