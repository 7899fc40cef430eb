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

/** Which sign-in an access token belongs to (docs/accounts.md, "Tokens and step-up"). */
export interface TokenSession {
  /**
   * When the account last proved who it is (password, Google, a reset code, a step-up): the
   * token's `auth_time` (OIDC Core 2). A refresh keeps the sign-in's; defaults to `now`.
   */
  authTime?: Date;
  /** The refresh-token family (sign-in) the token was issued for: the token's `sid`. */
  sessionId?: string;
  /**
   * The sign-in (or a later step-up) passed the account's second factor: the token carries
   * `amr: ["mfa"]` (RFC 8176), which creator routes may require (docs/accounts.md).
   */
  secondFactor?: boolean;
  /** The id of the factor passed: the token's `mfa_factor` (step-up binds to it, factor-passed.ts). */
  factorId?: string;
}

/**
 * Issues an access token for an account, valid ACCESS_TOKEN_TTL_SECONDS from `now`, carrying
 * `auth_time` (the sign-in's primary authentication, `now` unless given) and, when the token
 * belongs to a sign-in, its family id as `sid`.
 */
export const issueAccessToken = async (accountId: string, now: Date, session: TokenSession = {}) => {
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
    auth_time: Math.floor((session.authTime ?? now).getTime() / 1000),
    ...(session.sessionId ? { sid: session.sessionId } : {}),
    ...(session.secondFactor ? { amr: ['mfa'] } : {}),
    ...(session.secondFactor && session.factorId ? { mfa_factor: session.factorId } : {}),
  });
  return { token, expiresAt: new Date(exp * 1000).toISOString() };
};
