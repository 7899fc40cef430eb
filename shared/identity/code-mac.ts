import { kms } from '../aws/kms.ts';
import { setting } from '../config.ts';
import type { CodePurpose } from './email-verification-repository.ts';

/**
 * What a code is MACed for: an emailed one-time code's purpose, or a second factor's recovery
 * code (docs/accounts.md "Second factor"). Part of the MAC's input, so a MAC of one purpose is
 * never a MAC of another.
 */
export type MacPurpose = CodePurpose | 'RECOVERY_CODE';

/**
 * The MAC a code is stored as: KMS GenerateMac (HMAC_SHA_256) under the one-time-code key
 * (ONE_TIME_CODE_KEY_ID) of `one-time-code:v1:<purpose>:<account>:<code>`, base64url. Whoever reads
 * the table (a backup, the stream, an export of it) cannot test guesses offline: each guess needs
 * the key, which never leaves KMS, and only the functions that make or check codes may use it
 * (`one-time-codes`, shared/identity/second-factor-access.ts). A salted SHA-256 of 6-8 digits,
 * what emailed codes were stored as until 2026-11-30, falls to 10^6-10^8 hashes within the code's
 * 15 minutes; a recovery code's plain SHA-256 (~49.5 bits) to a long but unbounded search, as
 * recovery codes never expire. A module of its own: the second-factor routes use it without the
 * mailer and the rest of email verification.
 */
export const codeMac = async (accountId: string, purpose: MacPurpose, code: string): Promise<string> => {
  const { sdk, client } = await kms();
  const { Mac } = await client.send(
    new sdk.GenerateMacCommand({
      KeyId: setting('ONE_TIME_CODE_KEY_ID'),
      MacAlgorithm: 'HMAC_SHA_256',
      Message: Buffer.from(`one-time-code:v1:${purpose}:${accountId}:${code}`),
    }),
  );
  if (!Mac) throw new Error('KMS GenerateMac returned no MAC');
  return Buffer.from(Mac).toString('base64url');
};
