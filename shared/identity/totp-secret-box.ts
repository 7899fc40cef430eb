import { kms } from '../aws/kms.ts';
import { setting } from '../config.ts';

/**
 * TOTP secrets at rest (docs/accounts.md "Second factor"): encrypted with the stack's symmetric
 * KMS key (`SECOND_FACTOR_KEY_ID`) under an encryption context naming the account, so a
 * ciphertext copied to another account's item does not decrypt. Enrolment may only Encrypt;
 * the functions that check codes may only Decrypt (shared/identity/second-factor-access.ts).
 * Locally the same calls reach the local platform's KMS stand-in (scripts/local/aws.ts). The
 * plaintext secret is never logged and never leaves the function except in the enrolment answer.
 */
const contextOf = (accountId: string) => ({ account_id: accountId, purpose: 'totp' });

/** Encrypts `secret` for `accountId`: the ciphertext blob, base64. */
export const encryptTotpSecret = async (accountId: string, secret: Uint8Array): Promise<string> => {
  const { sdk, client } = await kms();
  const out = await client.send(
    new sdk.EncryptCommand({
      KeyId: setting('SECOND_FACTOR_KEY_ID'),
      Plaintext: secret,
      EncryptionContext: contextOf(accountId),
    }),
  );
  return Buffer.from(out.CiphertextBlob!).toString('base64');
};

/** Decrypts what `encryptTotpSecret` gave for the same account. */
export const decryptTotpSecret = async (accountId: string, ciphertext: string): Promise<Uint8Array> => {
  const { sdk, client } = await kms();
  const out = await client.send(
    new sdk.DecryptCommand({
      KeyId: setting('SECOND_FACTOR_KEY_ID'),
      CiphertextBlob: Buffer.from(ciphertext, 'base64'),
      EncryptionContext: contextOf(accountId),
    }),
  );
  return out.Plaintext!;
};
