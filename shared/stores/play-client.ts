import { createSign } from 'node:crypto';
import { oncePerContainer, perContainer } from '../aws/local-hook.ts';
import { setting } from '../config.ts';
import { keyFromSecret } from '../playback/key-secret.ts';

/**
 * The Google Play Developer API (androidpublisher v3), the calls the platform makes and nothing
 * else: `purchases.subscriptionsv2.get`, `purchases.products.get` and their acknowledgements. It
 * authenticates as the service account in the Play secret (PLAY_SECRET_ARN: the JSON key Google
 * Cloud issues, `client_email`, `private_key`, `token_uri`), with the OAuth 2.0 JWT bearer grant
 * (RFC 7523), the token kept until a minute before it expires. The API's address is
 * PLAY_API_URL when set (the local stand-in), else Google's. A small client of our own rather than
 * `@googleapis/androidpublisher`: four calls do not need the generated client and its transport.
 */
export interface PlaySecret {
  client_email: string;
  private_key: string;
  token_uri: string;
}

/** `purchases.subscriptionsv2.get`'s answer (the fields the platform reads). */
export interface SubscriptionPurchaseV2 {
  subscriptionState?: string;
  startTime?: string;
  latestOrderId?: string;
  acknowledgementState?: string;
  externalAccountIdentifiers?: { obfuscatedExternalAccountId?: string };
  lineItems?: Array<{
    productId?: string;
    expiryTime?: string;
    autoRenewingPlan?: {
      autoRenewEnabled?: boolean;
      recurringPrice?: { currencyCode?: string; units?: string; nanos?: number };
    };
  }>;
}

/** `purchases.products.get`'s answer: purchaseState 0 purchased, 1 canceled, 2 pending. */
export interface ProductPurchase {
  purchaseState?: number;
  acknowledgementState?: number;
  obfuscatedExternalAccountId?: string;
  orderId?: string;
  purchaseTimeMillis?: string;
}

const secretText = /* @__PURE__ */ keyFromSecret('PLAY_SECRET_ARN');
const SCOPE = 'https://www.googleapis.com/auth/androidpublisher';

const playSecret = /* @__PURE__ */ oncePerContainer(async (): Promise<PlaySecret> => {
  const parsed = JSON.parse(await secretText()) as Partial<PlaySecret>;
  if (!parsed.client_email || !parsed.private_key)
    throw new Error('The Play secret has no client_email or private_key');
  return {
    client_email: parsed.client_email,
    private_key: parsed.private_key,
    token_uri: parsed.token_uri ?? 'https://oauth2.googleapis.com/token',
  };
});

/** The container's OAuth token (each function's container asks for its own, with its own secret read). */
const tokenCache = /* @__PURE__ */ perContainer((): { token?: { value: string; until: number } } => ({}));

const b64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');

/** An OAuth access token for the service account (JWT bearer grant, RS256). */
const accessToken = async (): Promise<string> => {
  const cache = tokenCache();
  if (cache.token && cache.token.until > Date.now()) return cache.token.value;
  const secret = await playSecret();
  const now = Math.floor(Date.now() / 1000);
  const head = `${b64url(JSON.stringify({ alg: 'RS256', typ: 'JWT' }))}.${b64url(
    JSON.stringify({
      iss: secret.client_email,
      scope: SCOPE,
      aud: secret.token_uri,
      iat: now,
      exp: now + 3600,
    }),
  )}`;
  const signature = createSign('RSA-SHA256').update(head).sign(secret.private_key);
  const res = await fetch(secret.token_uri, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
      assertion: `${head}.${b64url(signature)}`,
    }),
    signal: AbortSignal.timeout(10_000),
  });
  if (!res.ok) throw new Error(`Google OAuth token: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { access_token: string; expires_in?: number };
  cache.token = { value: body.access_token, until: Date.now() + ((body.expires_in ?? 3600) - 60) * 1000 };
  return cache.token.value;
};

/** A purchase the Play Developer API does not know (404/410): a forged or foreign token. */
export class UnknownPurchaseError extends Error {}

const call = async <T>(method: 'GET' | 'POST', path: string): Promise<T> => {
  const base = process.env.PLAY_API_URL || 'https://androidpublisher.googleapis.com';
  const pkg = encodeURIComponent(setting('GOOGLE_PLAY_PACKAGE'));
  const res = await fetch(`${base}/androidpublisher/v3/applications/${pkg}${path}`, {
    method,
    headers: { authorization: `Bearer ${await accessToken()}`, 'content-type': 'application/json' },
    ...(method === 'POST' ? { body: '{}' } : {}),
    signal: AbortSignal.timeout(10_000),
  });
  if (res.status === 404 || res.status === 410 || res.status === 400)
    throw new UnknownPurchaseError(await res.text());
  if (!res.ok) throw new Error(`Play Developer API ${method} ${path}: ${res.status} ${await res.text()}`);
  const text = await res.text();
  return (text ? JSON.parse(text) : {}) as T;
};

const enc = encodeURIComponent;

/** `purchases.subscriptionsv2.get`. */
export const getSubscription = (purchaseToken: string) =>
  call<SubscriptionPurchaseV2>('GET', `/purchases/subscriptionsv2/tokens/${enc(purchaseToken)}`);

/** `purchases.products.get`. */
export const getProduct = (productId: string, purchaseToken: string) =>
  call<ProductPurchase>('GET', `/purchases/products/${enc(productId)}/tokens/${enc(purchaseToken)}`);

/** `purchases.subscriptions.acknowledge` (Google refunds a purchase left unacknowledged for 3 days). */
export const acknowledgeSubscription = (productId: string, purchaseToken: string) =>
  call<unknown>(
    'POST',
    `/purchases/subscriptions/${enc(productId)}/tokens/${enc(purchaseToken)}:acknowledge`,
  );

/** `purchases.products.acknowledge`. */
export const acknowledgeProduct = (productId: string, purchaseToken: string) =>
  call<unknown>('POST', `/purchases/products/${enc(productId)}/tokens/${enc(purchaseToken)}:acknowledge`);
