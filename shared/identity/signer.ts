import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type JsonWebKey,
  type KeyObject,
  randomUUID,
  sign as cryptoSign,
} from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

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
  /** The public key as a JWK (with kid, alg ES256, use sig). */
  publicJwk(): Promise<JsonWebKey & { kid: string }>;
}

const jwkOf = (publicKey: KeyObject, kid: string) => ({
  ...publicKey.export({ format: 'jwk' }),
  kid,
  alg: 'ES256',
  use: 'sig',
});

const localSigner = (): Signer => {
  let loaded: { kid: string; privateKey: KeyObject; publicKey: KeyObject } | undefined;
  const load = () => {
    if (loaded) return loaded;
    const dir = resolve(process.env.LOCAL_KEY_DIR ?? join(import.meta.dirname, '../../.local/keys'));
    const file = join(dir, 'access-token-signing-key.json');
    let stored: { kid: string; pem: string };
    try {
      stored = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      mkdirSync(dir, { recursive: true });
      const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const candidate = JSON.stringify({
        kid: `local-${randomUUID()}`,
        pem: privateKey.export({ format: 'pem', type: 'pkcs8' }),
      });
      const temp = `${file}.${process.pid}.${randomUUID()}`;
      writeFileSync(temp, candidate, { mode: 0o600 });
      try {
        linkSync(temp, file); // atomic: if another process won the race, keep its key
      } catch {
        // another process created the key first
      }
      rmSync(temp, { force: true });
      stored = JSON.parse(readFileSync(file, 'utf8'));
    }
    const privateKey = createPrivateKey(stored.pem);
    loaded = { kid: stored.kid, privateKey, publicKey: createPublicKey(privateKey) };
    return loaded;
  };
  return {
    kid: async () => load().kid,
    sign: async (data) => cryptoSign('sha256', data, { key: load().privateKey, dsaEncoding: 'ieee-p1363' }),
    publicJwk: async () => jwkOf(load().publicKey, load().kid),
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
  let publicKey: Promise<KeyObject> | undefined;
  const kms = import('@aws-sdk/client-kms').then((sdk) => ({ sdk, client: new sdk.KMSClient({}) }));
  const getPublicKey = () => {
    publicKey ??= kms.then(async ({ sdk, client }) => {
      const result = await client.send(new sdk.GetPublicKeyCommand({ KeyId: keyId }));
      return createPublicKey({ key: Buffer.from(result.PublicKey!), format: 'der', type: 'spki' });
    });
    return publicKey;
  };
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
    publicJwk: async () => jwkOf(await getPublicKey(), keyId),
  };
};

let signer: Signer | undefined;
/** The signer for this environment (created once per container). */
export const getSigner = (): Signer => {
  signer ??= process.env.SIGNING_KEY_ID ? kmsSigner(process.env.SIGNING_KEY_ID) : localSigner();
  return signer;
};
