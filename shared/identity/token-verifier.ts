import { JwtVerifier } from 'aws-jwt-verify';
import type { Principal } from '../http/auth.ts';
import { UnauthorizedError } from '../http/errors.ts';

/**
 * Access-token verification, kept apart from signing: verifying functions load no key material
 * and no KMS client. On AWS the stack sets `JWKS_URI` to this API's own
 * `/.well-known/jwks.json`, which aws-jwt-verify fetches once per container and caches (the
 * usual OIDC client behaviour); locally the local signing key's JWKS is cached up front.
 */
export const TOKEN_ISSUER = process.env.TOKEN_ISSUER ?? 'https://api.creators.example.com';
export const TOKEN_AUDIENCE = process.env.TOKEN_AUDIENCE ?? 'creator-streaming-api';

const createVerifier = () =>
  JwtVerifier.create({
    issuer: TOKEN_ISSUER,
    audience: TOKEN_AUDIENCE,
    jwksUri: process.env.JWKS_URI ?? `${TOKEN_ISSUER}/.well-known/jwks.json`,
    customJwtCheck: ({ header, payload }) => {
      if (header.alg !== 'ES256') throw new Error('Unexpected algorithm');
      if (payload.token_use !== 'access') throw new Error('Not an access token');
      if (typeof payload.sub !== 'string' || payload.sub.length === 0) throw new Error('No subject');
    },
  });

let verifier: Promise<ReturnType<typeof createVerifier>> | undefined;
const getVerifier = () => {
  verifier ??= (async () => {
    const v = createVerifier();
    if (!process.env.JWKS_URI) {
      const { localJwks } = await import('./local-key.ts');
      v.cacheJwks(localJwks() as never);
    }
    return v;
  })();
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
