import { randomUUID } from 'node:crypto';
import { getSigner } from './signer.ts';
import { TOKEN_AUDIENCE, TOKEN_ISSUER } from './token-claims.ts';

/**
 * Issuing the service's own access tokens: ES256 JWTs, 15 minutes, `token_use: access`, issuer
 * and audience pinned (token-claims.ts). Verification lives in token-verifier.ts.
 */
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;

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
