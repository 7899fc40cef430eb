import { verifyRealtimeToken } from './tokens.ts';

/**
 * The Event API's Lambda authoriser (AWS_LAMBDA auth mode of connect and of the `live`
 * namespace's subscribe; docs/realtime.md "Who subscribes"): a valid realtime token opens a
 * connection, and subscribes to the channels it names only. Publishing is never a subscriber's
 * (the namespace publishes with IAM). AppSync caches an answer for `ttlOverride` seconds: at most
 * until the token expires.
 */
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
