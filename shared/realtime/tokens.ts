import { TOKEN_ISSUER } from '../identity/token-claims.ts';

/**
 * Realtime tokens (docs/realtime.md "Who subscribes"): ES256 JWTs signed with the service key
 * (the access tokens' signer, KMS), audience REALTIME_AUDIENCE and `token_use: realtime`, so an
 * access token is never one and a realtime token never opens the API; `channels` names what it
 * may subscribe to; REALTIME_TOKEN_SECONDS of life (a connection stays open past it; a new
 * connection or subscribe needs a new token). Verified offline by the Event API's authoriser
 * (./authorizer.ts), so a signer's bundle carries no verifier (test/infra/bundle-auth.test.ts).
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
