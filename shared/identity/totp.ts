import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';

/**
 * The TOTP second factor's pure parts (RFC 6238 through `otpauth`; docs/accounts.md "Second
 * factor"): SHA-1, 6 digits, 30-second steps (what every authenticator app reads from an
 * otpauth:// URI), a 20-byte secret (RFC 4226's recommended 160 bits). Time comes in as `now`.
 */
export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** Steps accepted either side of the current one (clock drift between phone and server). */
export const TOTP_WINDOW = 1;
/** The name authenticator apps show above the code. */
export const TOTP_ISSUER = 'Creator Streaming';

const totpOf = (secret: Uint8Array, label = 'account') =>
  new TOTP({
    issuer: TOTP_ISSUER,
    label,
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    secret: new Secret({ buffer: Uint8Array.from(secret).buffer }),
  });

/** A new random secret (20 bytes). */
export const newTotpSecret = (): Buffer => randomBytes(20);

/** The secret as authenticator apps take it by hand: base32 (RFC 4648, no padding). */
export const base32Of = (secret: Uint8Array): string => totpOf(secret).secret.base32;

/** The otpauth:// URI a QR code carries (issuer, the account's label, the secret, SHA1/6/30). */
export const otpauthUri = (secret: Uint8Array, label: string): string => totpOf(secret, label).toString();

/** The time step `now` falls in (RFC 6238's T). */
export const stepAt = (now: Date): number => Math.floor(now.getTime() / 1000 / TOTP_PERIOD_SECONDS);

/** The code of `secret` at `now` (tests and the walk-through; what an authenticator app shows). */
export const totpCodeAt = (secret: Uint8Array, now: Date): string =>
  totpOf(secret).generate({ timestamp: now.getTime() });

/**
 * The time step whose code `code` is, within TOTP_WINDOW steps of `now`; undefined when it is
 * none of them. The caller refuses a step at or before the last one accepted (replay).
 */
export const matchingStep = (secret: Uint8Array, code: string, now: Date): number | undefined => {
  if (!/^\d{6}$/.test(code)) return undefined;
  const delta = totpOf(secret).validate({ token: code, timestamp: now.getTime(), window: TOTP_WINDOW });
  return delta === null ? undefined : stepAt(now) + delta;
};
