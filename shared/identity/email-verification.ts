import { randomInt, timingSafeEqual } from 'node:crypto';
import { ConflictError, DomainError, NotFoundError, ServiceUnavailableError } from '../errors/errors.ts';
import { logger, recordMetric } from '../observability/index.ts';
import { codeMac } from './code-mac.ts';
import { emailVerifiedUpdate, getAccount, isEmailVerified } from './account-repository.ts';
import {
  type CodePurpose,
  consumeVerificationCode,
  saveVerificationCode,
  spendAttempt,
  type VerificationCode,
} from './email-verification-repository.ts';
import { getMailer, UndeliverableAddressError } from '../mail/mailer.ts';
import type { EmailVerificationSent, EmailVerified } from './schemas.ts';

/**
 * Email verification (docs/identity.md): a 6-digit code sent to the account's address, valid for
 * 15 minutes, good for 5 attempts, usable once. Only a MAC of the code is stored (`codeMac`, a KMS
 * HMAC key no table reader has); a submitted code is compared in constant time after an attempt
 * has been spent, so parallel guesses share the one budget. A new code replaces the previous one.
 * The same one-time codes serve password resets and address changes.
 */
export const VERIFICATION_CODE_TTL_SECONDS = 15 * 60;
export const VERIFICATION_MAX_ATTEMPTS = 5;

/** 400: the code is wrong; says how many attempts the current code has left. */
export class IncorrectCodeError extends DomainError {
  constructor(attemptsLeft: number, resend = 'POST /auth/email/verification', what = 'verification code') {
    super(
      'bad_request',
      'INCORRECT_CODE',
      attemptsLeft > 0
        ? `Incorrect ${what}: ${attemptsLeft} attempt${attemptsLeft === 1 ? '' : 's'} left`
        : `Incorrect ${what}: no attempts left, request a new code (${resend})`,
    );
  }
}

/** 410: no usable code (never sent, expired, already used, or out of attempts). */
export class VerificationCodeGoneError extends DomainError {
  constructor(resend = 'POST /auth/email/verification', what = 'verification code') {
    super(
      'gone',
      'CODE_GONE',
      `No valid ${what}: it expired, was already used or had too many wrong attempts; request a new one (${resend})`,
    );
  }
}

/**
 * A fresh random code (6 digits unless told) for `purpose` (email verification unless told) sent
 * to `email`, and the record that stores its MAC.
 */
export const newVerificationCode = async (
  accountId: string,
  email: string,
  now: Date,
  options: { digits?: number; purpose?: CodePurpose } = {},
): Promise<{ code: string; record: VerificationCode }> => {
  const digits = options.digits ?? 6;
  const code = randomInt(0, 10 ** digits)
    .toString()
    .padStart(digits, '0');
  const purpose = options.purpose ?? 'EMAIL_VERIFICATION';
  return {
    code,
    record: {
      account_id: accountId,
      ...(purpose !== 'EMAIL_VERIFICATION' ? { purpose } : {}),
      email,
      code_mac: await codeMac(accountId, purpose, code),
      attempts: 0,
      created_at: now.toISOString(),
      expires_at_epoch: Math.floor(now.getTime() / 1000) + VERIFICATION_CODE_TTL_SECONDS,
    },
  };
};

/** Does `code` match the stored MAC? Constant-time in the content of the code. */
export const codeMatches = async (
  record: Pick<VerificationCode, 'account_id' | 'purpose' | 'code_mac'>,
  code: string,
): Promise<boolean> => {
  const submitted = Buffer.from(
    await codeMac(record.account_id, record.purpose ?? 'EMAIL_VERIFICATION', code),
  );
  const stored = Buffer.from(record.code_mac);
  return submitted.length === stored.length && timingSafeEqual(submitted, stored);
};

/**
 * Sends `code` to `email`: `sent`, `undeliverable` (the address bounced permanently or
 * complained: nothing is sent) or `failed` (SES refused or failed after the SDK's retries).
 * A failure is logged with the error's name only (never the code or the address) and counted.
 */
export const mailVerificationCode = async (
  email: string,
  code: string,
): Promise<'sent' | 'undeliverable' | 'failed'> => {
  try {
    await getMailer().send({
      to: email,
      subject: 'Your verification code',
      text: `Your verification code is ${code}. It expires in ${VERIFICATION_CODE_TTL_SECONDS / 60} minutes. If you did not create an account, ignore this message.`,
    });
    return 'sent';
  } catch (error) {
    if (error instanceof UndeliverableAddressError) {
      recordMetric('verification_emails_suppressed');
      return 'undeliverable';
    }
    logger.error('Verification email not sent', { error: error instanceof Error ? error.name : 'unknown' });
    recordMetric('verification_emails_failed');
    return 'failed';
  }
};

/**
 * `POST /auth/email/verification`: a new code for the caller's address, replacing the previous
 * one. 409 when the address is already verified or marked undeliverable (it bounced or
 * complained); 503 when the mail could not be sent.
 */
export const requestEmailVerification = async (
  accountId: string,
  now: Date,
): Promise<EmailVerificationSent> => {
  const account = await getAccount(accountId);
  if (!account) throw new NotFoundError('Account not found');
  if (isEmailVerified(account)) throw new ConflictError('Email is already verified');
  const { code, record } = await newVerificationCode(account.account_id, account.email, now);
  await saveVerificationCode(record);
  const outcome = await mailVerificationCode(account.email, code);
  if (outcome === 'undeliverable') {
    throw new ConflictError(
      'Mail to this address bounced or was reported as spam: no more codes are sent to it',
    );
  }
  if (outcome === 'failed') {
    throw new ServiceUnavailableError('The verification email could not be sent; retry later', 60);
  }
  return {
    email: account.email,
    expires_at: new Date(record.expires_at_epoch * 1000).toISOString(),
    max_attempts: VERIFICATION_MAX_ATTEMPTS,
  };
};

/**
 * `POST /auth/email/verify`: spends an attempt, compares, and on a match uses the code and marks
 * the account verified in one transaction. 400 for a wrong code (with the attempts left), 410
 * when there is no usable code, 409 when the address is already verified.
 */
export const verifyEmail = async (accountId: string, code: string, now: Date): Promise<EmailVerified> => {
  const record = await spendAttempt(accountId, VERIFICATION_MAX_ATTEMPTS, now);
  if (!record) {
    const account = await getAccount(accountId);
    if (account && isEmailVerified(account)) throw new ConflictError('Email is already verified');
    throw new VerificationCodeGoneError();
  }
  if (!(await codeMatches(record, code)))
    throw new IncorrectCodeError(VERIFICATION_MAX_ATTEMPTS - record.attempts);
  const used = await consumeVerificationCode(record, emailVerifiedUpdate(accountId, record.email, now));
  if (!used) throw new VerificationCodeGoneError();
  recordMetric('emails_verified');
  return {
    creator_id: accountId,
    email: record.email,
    email_verified: true,
    email_verified_at: now.toISOString(),
  };
};
