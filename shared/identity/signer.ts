import { type KeyObject, sign as cryptoSign } from 'node:crypto';
import { localSigningKey } from './local-key.ts';

/**
 * The key that signs the service's access tokens (ES256). On AWS a KMS asymmetric key
 * (ECC_NIST_P256, SIGN_VERIFY) created by the stack: the private key never leaves KMS, and
 * `SIGNING_KEY_ID` names it. Locally, a P-256 key pair generated on first use into the
 * git-ignored `.local/keys/` (or `LOCAL_KEY_DIR`).
 */
export interface Signer {
  /** Key id published in the JWKS and put in every token header. */
  kid(): Promise<string>;
  /** ES256 signature of `data` in JOSE form (r || s, 64 bytes). */
  sign(data: Buffer): Promise<Buffer>;
}

const localSigner = (): Signer => {
  let loaded: { kid: string; privateKey: KeyObject } | undefined;
  const load = () => {
    if (!loaded) {
      loaded = localSigningKey();
    }
    return loaded;
  };
  return {
    kid: async () => load().kid,
    sign: async (data) => cryptoSign('sha256', data, { key: load().privateKey, dsaEncoding: 'ieee-p1363' }),
  };
};

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
  const kms = import('@aws-sdk/client-kms').then((sdk) => ({ sdk, client: new sdk.KMSClient({}) }));
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
  signer ??= process.env.SIGNING_KEY_ID ? kmsSigner(process.env.SIGNING_KEY_ID) : localSigner();
  return signer;
};
