import { JwtVerifier } from 'aws-jwt-verify/jwt-verifier';
import { perContainer } from '../aws/local-hook.ts';
import { publicJwks } from '../identity/jwks.ts';
import { TOKEN_ISSUER } from '../identity/token-claims.ts';
import { REALTIME_AUDIENCE, type RealtimeClaims } from './tokens.ts';

/**
 * The Event API's Lambda authoriser (AWS_LAMBDA auth mode of connect and of the `live`
 * namespace's subscribe; docs/realtime.md "Who subscribes"): a valid realtime token opens a
 * connection, and subscribes to the channels it names only. Publishing is never a subscriber's
 * (the namespace publishes with IAM). No answer is cached (`ttlOverride: 0`, and the API's
 * `resultsCacheTtl` is 0): AWS does not document what AppSync Events keys an authoriser's cached
 * answer on, and an answer kept by token alone would let a connect's yes (or one channel's) admit
 * a subscribe to any channel. The price is one call per connect and per subscribe (docs/realtime.md).
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

export const authorizeSubscriber = (event: AuthorizerEvent): AuthorizerResult => {
  const claims = verifyRealtimeToken(String(event.authorizationToken ?? ''));
  if (!claims) return { isAuthorized: false };
  const { operation, channel } = event.requestContext ?? {};
  if (operation === 'EVENT_CONNECT') return { isAuthorized: true, ttlOverride: 0 };
  if (operation === 'EVENT_SUBSCRIBE' && channel && claims.channels.includes(channel))
    return { isAuthorized: true, ttlOverride: 0 };
  return { isAuthorized: false, ttlOverride: 0 };
};
