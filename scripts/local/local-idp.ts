import { createPublicKey, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { loadLocalKey } from './local-key.ts';

/**
 * A local identity provider that stands in for Google on the local platform and in tests: its
 * own RSA key pair (in `.local/keys/`, or LOCAL_KEY_DIR), a JWKS, and a minting function for
 * RS256 ID tokens shaped like Google's. The service verifies these with exactly the code that
 * verifies Google's tokens; only the key set differs (the local platform serves it and names it in
 * GOOGLE_JWKS_URI: scripts/local/google-idp.ts).
 */
export const LOCAL_IDP_ISSUER = 'https://accounts.google.com';
export const LOCAL_GOOGLE_CLIENT_ID = 'local-google-client-id.apps.googleusercontent.com';

let key: { kid: string; privateKey: KeyObject; publicKey: KeyObject } | undefined;
const load = () => {
  if (!key) {
    const { kid, privateKey } = loadLocalKey(
      'local-google-idp',
      () => generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey,
    );
    key = { kid, privateKey, publicKey: createPublicKey(privateKey) };
  }
  return key;
};

/** The local IdP's public keys. */
export const localIdpJwks = () => {
  const { kid, publicKey } = load();
  return { keys: [{ ...publicKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' }] };
};

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** Mints a Google-shaped ID token. `claims` override the defaults (for expired/foreign-audience tests). */
export const mintGoogleIdToken = (
  profile: { email: string; name?: string; sub?: string },
  claims: Record<string, unknown> = {},
  header: Record<string, unknown> = {},
): string => {
  const { kid, privateKey } = load();
  const iat = Math.floor(Date.now() / 1000);
  const head = b64({ alg: 'RS256', typ: 'JWT', kid, ...header });
  const body = b64({
    iss: LOCAL_IDP_ISSUER,
    aud: process.env.GOOGLE_CLIENT_ID ?? LOCAL_GOOGLE_CLIENT_ID,
    sub: profile.sub ?? `google-${Buffer.from(profile.email).toString('hex').slice(0, 20)}`,
    email: profile.email,
    email_verified: true,
    name: profile.name ?? profile.email.split('@')[0],
    iat,
    exp: iat + 3600,
    ...claims,
  });
  const signature = sign('sha256', Buffer.from(`${head}.${body}`), privateKey).toString('base64url');
  return `${head}.${body}.${signature}`;
};
