import { JwtVerifier } from 'aws-jwt-verify';
import { perContainer } from '../aws/local-hook.ts';
import { publicJwks } from '../identity/jwks.ts';
import { TOKEN_ISSUER } from '../identity/token-claims.ts';

/**
 * Realtime tokens (docs/realtime.md "Who subscribes"): ES256 JWTs signed with the service key
 * (the access tokens' signer, KMS), audience REALTIME_AUDIENCE and `token_use: realtime`, so an
 * access token is never one and a realtime token never opens the API; `channels` names what it
 * may subscribe to; REALTIME_TOKEN_SECONDS of life (a connection stays open past it; a new
 * connection or subscribe needs a new token). Verified offline by the Event API's authoriser.
 */
export const REALTIME_AUDIENCE = 'creator-streaming-realtime';
export const REALTIME_TOKEN_SECONDS = 5 * 60;

/** The claims of a realtime token. */
export interface RealtimeClaims {
  /** The account, or `anonymous`. */
  sub: string;
  channels: string[];
  exp: number;
}

export const realtimeClaims = (subject: string, channels: string[], now: Date) => {
  const iat = Math.floor(now.getTime() / 1000);
  return {
    iss: TOKEN_ISSUER,
    aud: REALTIME_AUDIENCE,
    sub: subject,
    token_use: 'realtime',
    channels,
    iat,
    exp: iat + REALTIME_TOKEN_SECONDS,
  };
};

const verifier = /* @__PURE__ */ perContainer(() => {
  const v = JwtVerifier.create({
    issuer: TOKEN_ISSUER,
    audience: REALTIME_AUDIENCE,
    jwksUri: `${TOKEN_ISSUER}/.well-known/jwks.json`,
    customJwtCheck: ({ header, payload }) => {
      if (header.alg !== 'ES256') throw new Error('Unexpected algorithm');
      if (payload.token_use !== 'realtime') throw new Error('Not a realtime token');
      if (!Array.isArray(payload.channels)) throw new Error('No channels');
    },
  });
  v.cacheJwks(publicJwks());
  return v;
});

/** The token's claims, or undefined when it is not a valid, unexpired realtime token. */
export const verifyRealtimeToken = (token: string): RealtimeClaims | undefined => {
  try {
    const payload = verifier().verifySync(token);
    return {
      sub: String(payload.sub),
      channels: (payload.channels as unknown[]).map(String),
      exp: Number(payload.exp),
    };
  } catch {
    return undefined;
  }
};
