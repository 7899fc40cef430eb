import { generateKeyPairSync, type KeyObject, sign } from 'node:crypto';

/** An ES384 (P-384) key pair, as `aws ivs import-playback-key-pair` expects. */
export const playbackKeyPair = () => {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'secp384r1' });
  return { privateKey, publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString() };
};

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A private-channel playback token: a JWT signed ES384 (raw r||s signature, as JWS requires). */
export const playbackToken = (privateKey: KeyObject, claims: Record<string, unknown>): string => {
  const signingInput = `${base64url({ alg: 'ES384', typ: 'JWT' })}.${base64url(claims)}`;
  const signature = sign('sha384', Buffer.from(signingInput), { key: privateKey, dsaEncoding: 'ieee-p1363' });
  return `${signingInput}.${signature.toString('base64url')}`;
};

/** Dummy credentials: the stand-in does not check SigV4 signatures. */
export const localIvsClientConfig = (endpoint: string) => ({
  endpoint,
  region: 'us-east-1',
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
});
