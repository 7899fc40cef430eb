import { JwtVerifier } from 'aws-jwt-verify/jwt-verifier';
import { perContainer } from '../aws/local-hook.ts';
import { publicJwks } from '../identity/jwks.ts';
import { TOKEN_ISSUER } from '../identity/token-claims.ts';
import { REALTIME_AUDIENCE, type RealtimeClaims } from './tokens.ts';

/**
 * The Event API's Lambda authoriser (AWS_LAMBDA auth mode of connect and of the `live`
 * namespace's subscribe; docs/realtime.md "Who subscribes"): a valid realtime token opens a
 * connection, and subscribes to the channels it names only. Publishing is never a subscriber's
 * (the namespace publishes with IAM). AppSync caches an answer for `ttlOverride` seconds: at most
 * until the token expires.
 */
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

export interface AuthorizerEvent {
  authorizationToken: string;
  requestContext: {
    apiId: string;
    accountId: string;
    requestId: string;
    operation: 'EVENT_CONNECT' | 'EVENT_SUBSCRIBE' | 'EVENT_PUBLISH';
    channelNamespaceName?: string;
    channel?: string;
  };
  requestHeaders?: Record<string, string>;
}

export interface AuthorizerResult {
  isAuthorized: boolean;
  ttlOverride?: number;
}

export const authorizeSubscriber = (event: AuthorizerEvent, now: Date): AuthorizerResult => {
  const claims = verifyRealtimeToken(String(event.authorizationToken ?? ''));
  if (!claims) return { isAuthorized: false };
  const ttlOverride = Math.max(0, Math.min(claims.exp - Math.floor(now.getTime() / 1000), 300));
  const { operation, channel } = event.requestContext ?? {};
  if (operation === 'EVENT_CONNECT') return { isAuthorized: true, ttlOverride };
  if (operation === 'EVENT_SUBSCRIBE' && channel && claims.channels.includes(channel))
    return { isAuthorized: true, ttlOverride };
  return { isAuthorized: false };
};
