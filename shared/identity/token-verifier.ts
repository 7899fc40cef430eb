import { JwtVerifier } from 'aws-jwt-verify/jwt-verifier';
import { JwtExpiredError } from 'aws-jwt-verify/error';
import type { Principal } from './principal.ts';
import { perContainer } from '../aws/local-hook.ts';
import { UnauthorizedError } from '../errors/errors.ts';
import { publicJwks } from './jwks.ts';
import { TOKEN_AUDIENCE, TOKEN_ISSUER } from './token-claims.ts';

/**
 * Access-token verification. At a container's first token the verifier caches the signing key's
 * public JWK from the function's environment (`SIGNING_PUBLIC_JWK`, computed at deploy:
 * shared/identity/jwks.ts) and verifies synchronously from then on: no KMS call, no HTTP hop to
 * our own JWKS route, so no dependency can turn a valid token into an error. A token whose `kid`
 * is not that key is a 401 at once, never a fetch. A missing or malformed `SIGNING_PUBLIC_JWK` is
 * a deployment error: it throws (500) at the first token, naming the problem.
 */

const createVerifier = () =>
  JwtVerifier.create({
    issuer: TOKEN_ISSUER,
    audience: TOKEN_AUDIENCE,
    // Never fetched: the JWKS is cached from the environment before the first verify, and verifySync never fetches.
    jwksUri: `${TOKEN_ISSUER}/.well-known/jwks.json`,
    customJwtCheck: ({ header, payload }) => {
      if (header.alg !== 'ES256') throw new Error('Unexpected algorithm');
      if (payload.token_use !== 'access') throw new Error('Not an access token');
      if (typeof payload.sub !== 'string' || payload.sub.length === 0) throw new Error('No subject');
    },
  });

/** One verifier per container; a failure (malformed JWK) is not kept, so every call reports it. */
const getVerifier = /* @__PURE__ */ perContainer(() => {
  const v = createVerifier();
  v.cacheJwks(publicJwks());
  return v;
});

/** Verifies an access token; any failure (tampered, expired, wrong iss/aud/alg/use/kid) is a 401. */
export const verifyAccessToken = async (token: string): Promise<Principal> => {
  const v = getVerifier(); // a malformed SIGNING_PUBLIC_JWK propagates (500), never a 401
  try {
    const payload = v.verifySync(token);
    return {
      accountId: String(payload.sub),
      tokenId: typeof payload.jti === 'string' ? payload.jti : undefined,
      authTime: typeof payload.auth_time === 'number' ? payload.auth_time : undefined,
      sessionId: typeof payload.sid === 'string' ? payload.sid : undefined,
      secondFactor: Array.isArray(payload.amr) && payload.amr.includes('mfa'),
      secondFactorId: typeof payload.mfa_factor === 'string' ? payload.mfa_factor : undefined,
    };
  } catch (error) {
    const expired = error instanceof JwtExpiredError;
    const description = expired
      ? 'The access token expired; get a new one with POST /auth/refresh'
      : 'The access token is invalid';
    throw new UnauthorizedError(expired ? 'Access token expired' : 'Invalid access token', {
      error: 'invalid_token',
      description,
    });
  }
};
