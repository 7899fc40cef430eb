import { createHash, randomInt } from 'node:crypto';
import { codeMac } from './code-mac.ts';
import { isKeyedSet, KEYED } from './recovery-code-form.ts';

/**
 * A second factor's recovery codes (docs/accounts.md "Second factor"): RECOVERY_CODE_COUNT
 * single-use codes shown once at enrolment, stored only in a form a table reader cannot test
 * guesses against: since 2026-11-30 a MAC under the one-time-code KMS key (`codeMac`, purpose
 * `RECOVERY_CODE`), prefixed `mac1:`. Sets stored before then hold plain SHA-256s (no prefix);
 * they stay as they are until the owner replaces them (POST /me/mfa/totp/recovery-codes) or enrols
 * again, and are checked in their own form.
 */
export const RECOVERY_CODE_COUNT = 10;

/** Letters and digits that cannot be misread for one another (no 0/O, 1/I/L). */
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

/** `XXXXX-XXXXX`: 10 characters of a 31-letter alphabet, ~49.5 bits each. */
const newRecoveryCode = (): string => {
  const chars = Array.from({ length: 10 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
};

/** A recovery code as typed (any case, spaces or dashes anywhere) in its canonical form. */
export const canonicalRecoveryCode = (typed: string): string => typed.toUpperCase().replace(/[\s-]/g, '');

/** The stored form of a recovery code since 2026-11-30: `mac1:` and its MAC (one KMS call). */
export const keyedRecoveryCode = async (accountId: string, typed: string): Promise<string> =>
  `${KEYED}${await codeMac(accountId, 'RECOVERY_CODE', canonicalRecoveryCode(typed))}`;

/**
 * The stored form of a recovery code before 2026-11-30: SHA-256 of the account id and the
 * canonical code, base64url. Only checked, never written: whoever reads the table can search
 * the ~49.5 bits offline, with no expiry to race.
 */
export const legacyRecoveryCodeHash = (accountId: string, typed: string): string =>
  createHash('sha256')
    .update(`${accountId}:${canonicalRecoveryCode(typed)}`)
    .digest('base64url');

/** RECOVERY_CODE_COUNT new codes (shown once) and their keyed forms (stored). */
export const newRecoveryCodes = async (accountId: string): Promise<{ codes: string[]; stored: string[] }> => {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  return { codes, stored: await Promise.all(codes.map((code) => keyedRecoveryCode(accountId, code))) };
};

/**
 * `typed` in the form of the account's stored set `stored` (one set is all one form: it is
 * written whole, at enrolment or a regeneration): keyed when the set is, else the legacy SHA-256
 * (no KMS call). Undefined when no code is left to use.
 */
export const recoveryCodeAsStored = async (
  accountId: string,
  stored: ReadonlySet<string> | undefined,
  typed: string,
): Promise<string | undefined> => {
  if (!stored || stored.size === 0) return undefined;
  return isKeyedSet(stored) ? keyedRecoveryCode(accountId, typed) : legacyRecoveryCodeHash(accountId, typed);
};
