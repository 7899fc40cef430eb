import { randomUUID } from 'node:crypto';
import { JwtVerifier } from 'aws-jwt-verify';
import type { Principal } from '../http/auth.ts';
import { UnauthorizedError } from '../http/errors.ts';
import { getSigner } from './signer.ts';

/**
 * The service's own access tokens: ES256 JWTs, 15 minutes, `token_use: access`, issuer and
 * audience pinned. Verified offline with aws-jwt-verify against the signer's public key (cached
 * once per container; on AWS fetched from KMS once).
 */
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
export const TOKEN_ISSUER = process.env.TOKEN_ISSUER ?? 'https://api.creators.example.com';
export const TOKEN_AUDIENCE = process.env.TOKEN_AUDIENCE ?? 'creator-streaming-api';

const b64url = (value: Buffer | string) => Buffer.from(value).toString('base64url');

/** Signs a JWT with the service key; `claims` must not override the registered ones given here. */
export const signJwt = async (claims: Record<string, unknown>): Promise<string> => {
  const signer = getSigner();
  const header = b64url(JSON.stringify({ alg: 'ES256', typ: 'JWT', kid: await signer.kid() }));
  const payload = b64url(JSON.stringify(claims));
  const signature = await signer.sign(Buffer.from(`${header}.${payload}`));
  return `${header}.${payload}.${b64url(signature)}`;
};

/** Issues an access token for an account, valid ACCESS_TOKEN_TTL_SECONDS from `now`. */
export const issueAccessToken = async (accountId: string, now: Date) => {
  const iat = Math.floor(now.getTime() / 1000);
  const exp = iat + ACCESS_TOKEN_TTL_SECONDS;
  const token = await signJwt({
    iss: TOKEN_ISSUER,
    aud: TOKEN_AUDIENCE,
    sub: accountId,
    iat,
    exp,
    jti: randomUUID(),
    token_use: 'access',
  });
  return { token, expiresAt: new Date(exp * 1000).toISOString() };
};

/** The JWKS published at `/.well-known/jwks.json`. */
export const publicJwks = async () => ({ keys: [await getSigner().publicJwk()] });

let verifier: Promise<ReturnType<typeof createVerifier>> | undefined;
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
