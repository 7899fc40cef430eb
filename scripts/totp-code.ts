/**
 * Prints the code an authenticator app would show now for a TOTP secret (the base32 `secret` of
 * `POST /me/mfa/totp`), for trying the second factor against `npm start` without a phone:
 *   npx tsx scripts/totp-code.ts JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP
 * A code works once: for another sign-in, wait for the next one (30 s).
 */
import { Secret } from 'otpauth';
import { stepAt, TOTP_PERIOD_SECONDS, totpCodeAt } from '../shared/identity/totp.ts';

const [secret] = process.argv.slice(2);
if (!secret) {
  console.error('usage: npx tsx scripts/totp-code.ts <base32 secret>');
  process.exit(2);
}
const now = new Date();
const left = (stepAt(now) + 1) * TOTP_PERIOD_SECONDS - Math.floor(now.getTime() / 1000);
console.log(`${totpCodeAt(new Uint8Array(Secret.fromBase32(secret).buffer), now)} (${left} s left)`);
