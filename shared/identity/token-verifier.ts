import { JwtVerifier } from 'aws-jwt-verify';
import type { Principal } from '../http/auth.ts';
import { oncePerContainer } from '../aws/local-hook.ts';
import { UnauthorizedError } from '../http/errors.ts';
import { publicJwks } from './jwks.ts';

/**
 * Access-token verification. At a container's first token the verifier loads the signing key's
 * public half from KMS (shared/identity/jwks.ts: one GetPublicKey, no HTTP hop to our own JWKS
 * route) and verifies synchronously from then on: a token whose `kid` is not that key is a 401
 * at once, never a fetch. If KMS cannot be read the request fails as 503 (retry), not 401, and
 * the next request tries again.
 */
export const TOKEN_ISSUER = 'https://api.creators.example.com';
export const TOKEN_AUDIENCE = 'creator-streaming-api';

const createVerifier = () =>
  JwtVerifier.create({
    issuer: TOKEN_ISSUER,
    audience: TOKEN_AUDIENCE,
    // Never fetched: the JWKS is cached from KMS before the first verify, and verifySync never fetches.
    jwksUri: `${TOKEN_ISSUER}/.well-known/jwks.json`,
    customJwtCheck: ({ header, payload }) => {
      if (header.alg !== 'ES256') throw new Error('Unexpected algorithm');
      if (payload.token_use !== 'access') throw new Error('Not an access token');
      if (typeof payload.sub !== 'string' || payload.sub.length === 0) throw new Error('No subject');
    },
  });

const getVerifier = oncePerContainer(async () => {
  const v = createVerifier();
  v.cacheJwks(await publicJwks());
  return v;
});

/** Verifies an access token; any failure (tampered, expired, wrong iss/aud/alg/use/kid) is a 401. */
export const verifyAccessToken = async (token: string): Promise<Principal> => {
  const v = await getVerifier(); // a KMS failure propagates (503 if transient), never a 401
  try {
    const payload = v.verifySync(token);
    return {
      accountId: String(payload.sub),
      tokenId: typeof payload.jti === 'string' ? payload.jti : undefined,
    };
  } catch {
    throw new UnauthorizedError('Invalid or expired access token');
  }
};
