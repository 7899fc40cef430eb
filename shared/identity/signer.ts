import { awsClient } from '../aws/local-hook.ts';
import { setting } from '../config.ts';

/**
 * The key that signs the service's access tokens (ES256). On AWS a KMS asymmetric key
 * (ECC_NIST_P256, SIGN_VERIFY) created by the stack: the private key never leaves KMS, and
 * `SIGNING_KEY_ID` names it. Locally the same KMS calls are served by the local platform's KMS
 * stand-in (scripts/local/aws.ts) with a key kept in the git-ignored `.local/keys/`.
 */
export interface Signer {
  /** Key id published in the JWKS and put in every token header. */
  kid(): Promise<string>;
  /** ES256 signature of `data` in JOSE form (r || s, 64 bytes). */
  sign(data: Buffer): Promise<Buffer>;
}

/** DER ECDSA signature (what KMS returns) → JOSE r||s. */
const derToJose = (der: Uint8Array): Buffer => {
  const readInt = (offset: number): [Buffer, number] => {
    const length = der[offset + 1]!;
    const bytes = Buffer.from(der.subarray(offset + 2, offset + 2 + length));
    const trimmed = bytes.subarray(Math.max(0, bytes.length - 32));
    return [Buffer.concat([Buffer.alloc(32 - trimmed.length), trimmed]), offset + 2 + length];
  };
  const seqHeader = der[1]! & 0x80 ? 2 + (der[1]! & 0x7f) : 2;
  const [r, next] = readInt(seqHeader);
  const [s] = readInt(next);
  return Buffer.concat([r, s]);
};

const kmsSigner = (keyId: string): Signer => {
  // KMSClient and SignCommand only, not the package's namespace: a namespace import keeps every
  // command, error and enum of the package in the bundle (issue 41, docs/performance.md).
  const kms = import('./kms-sign.ts').then((sdk) => ({
    sdk,
    client: awsClient(new sdk.KMSClient({}), 'kms'),
  }));
  return {
    kid: async () => keyId,
    sign: async (data) => {
      const { sdk, client } = await kms;
      const result = await client.send(
        new sdk.SignCommand({
          KeyId: keyId,
          Message: data,
          MessageType: 'RAW',
          SigningAlgorithm: 'ECDSA_SHA_256',
        }),
      );
      return derToJose(result.Signature!);
    },
  };
};

let signer: Signer | undefined;
/** The signer for this environment (created once per container). */
export const getSigner = (): Signer => {
  signer ??= kmsSigner(setting('SIGNING_KEY_ID'));
  return signer;
};
