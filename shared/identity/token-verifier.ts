import { createPublicKey, type JsonWebKey } from 'node:crypto';
import { JwtVerifier } from 'aws-jwt-verify';
import type { Principal } from '../http/auth.ts';
import { UnauthorizedError } from '../http/errors.ts';

/**
 * Access-token verification, kept apart from signing so that verifying functions load neither
 * any private key material (see accessTokenPublicJwk for where the public key comes from).
 */
export const TOKEN_ISSUER = process.env.TOKEN_ISSUER ?? 'https://api.creators.example.com';
export const TOKEN_AUDIENCE = process.env.TOKEN_AUDIENCE ?? 'creator-streaming-api';

/** The public key that verifies access tokens, as a JWK with kid, alg and use. */
export const accessTokenPublicJwk = async (): Promise<JsonWebKey & { kid: string }> => {
  const deployed = process.env.ACCESS_TOKEN_PUBLIC_KEY;
  if (deployed) {
    const key = createPublicKey({ key: Buffer.from(deployed, 'base64'), format: 'der', type: 'spki' });
    return {
      ...key.export({ format: 'jwk' }),
      kid: process.env.SIGNING_KEY_ID ?? 'kms',
      alg: 'ES256',
      use: 'sig',
    };
  }
  const { localSigningKey } = await import('./local-key.ts');
  const { kid, privateKey } = localSigningKey();
  return { ...createPublicKey(privateKey).export({ format: 'jwk' }), kid, alg: 'ES256', use: 'sig' };
};

/** The JWKS published at `/.well-known/jwks.json`. */
export const publicJwks = async () => ({ keys: [await accessTokenPublicJwk()] });

const createVerifier = () =>
  JwtVerifier.create({
    issuer: TOKEN_ISSUER,
    audience: TOKEN_AUDIENCE,
    jwksUri: `${TOKEN_ISSUER}/.well-known/jwks.json`,
    customJwtCheck: ({ header, payload }) => {
      if (header.alg !== 'ES256') throw new Error('Unexpected algorithm');
      if (payload.token_use !== 'access') throw new Error('Not an access token');
      if (typeof payload.sub !== 'string' || payload.sub.length === 0) throw new Error('No subject');
    },
  });

let verifier: Promise<ReturnType<typeof createVerifier>> | undefined;
const getVerifier = () => {
  verifier ??= publicJwks().then((jwks) => {
    const v = createVerifier();
    v.cacheJwks(jwks as never);
    return v;
  });
  return verifier;
};

/** Verifies an access token; any failure (tampered, expired, wrong iss/aud/alg/use) is a 401. */
export const verifyAccessToken = async (token: string): Promise<Principal> => {
  try {
    const payload = await (await getVerifier()).verify(token);
    return {
      accountId: String(payload.sub),
      tokenId: typeof payload.jti === 'string' ? payload.jti : undefined,
    };
  } catch {
    throw new UnauthorizedError('Invalid or expired access token');
  }
};
