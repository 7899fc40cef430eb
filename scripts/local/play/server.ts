import {
  createPublicKey,
  createSign,
  createVerify,
  generateKeyPairSync,
  type KeyObject,
  randomInt,
  randomUUID,
} from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { productIdOf } from '../../../shared/stores/catalogue.ts';
import { GOOGLE_PAY_TYPES } from './types.ts';

export { GOOGLE_PAY_TYPES } from './types.ts';

/**
 * The Google Play stand-in (local-only; docs/payments.md "App stores: locally"): the parts of
 * Google the platform talks to, on one port.
 * - OAuth 2.0 token endpoint (`POST /token`, JWT bearer grant): checks the assertion is signed by
 *   the service account key it issued (`serviceAccount`, what goes in the Play secret).
 * - Play Developer API: `purchases.subscriptionsv2.get`, `purchases.products.get`, both
 *   acknowledgements, under `/androidpublisher/v3/applications/{package}/...` (bearer required).
 * - Google's OIDC keys (`GET /oauth2/v3/certs`) and Pub/Sub push: each happening changes the
 *   purchase and pushes a Real-time developer notification to the registered URL with an OIDC
 *   token (iss https://accounts.google.com, the push audience, the service account's email).
 * Control API (not Google's): `POST /_standin/notify` `{ type, account_id, target, deliver? }`
 * (`deliver: false`: the purchase changes, the push is never sent: a lost delivery).
 */
export interface PlayStandInOptions {
  port?: number;
  packageName: string;
  productPrefix: string;
  pushAudience: string;
  pushServiceAccount: string;
  /** The account's app_account_token (the app sets it as the obfuscated account id). */
  appTokenOf: (accountId: string) => Promise<string | undefined>;
  periodMs?: number;
  graceMs?: number;
}

interface Purchase {
  token: string;
  productId: string;
  appToken: string;
  subscription: boolean;
  state: string;
  expiry: number;
  autoRenew: boolean;
  acknowledged: boolean;
  start: number;
  orders: number;
  purchaseState: 0 | 1 | 2;
}

export interface PlayStandIn {
  endpoint: string;
  serviceAccount: { client_email: string; private_key: string; token_uri: string };
  jwksUrl: string;
  connect(pushUrl: string): void;
  /** An OIDC token as Pub/Sub signs it (tests vary the claims or the key). */
  pushToken(claims?: Record<string, unknown>, key?: KeyObject): string;
  notify(input: PlayNotifyInput): Promise<PlayOutcome>;
  purchase(token: string): Purchase | undefined;
  /** While set, every Play Developer API call answers this status (an outage); undefined ends it. */
  outage(status: number | undefined): void;
  stop(): Promise<void>;
}

export interface PlayNotifyInput {
  type: string;
  account_id: string;
  target: string;
  /** false: the purchase changes, no push is sent (a lost delivery). */
  deliver?: boolean;
}

export interface PlayOutcome {
  notification: { message_id: string; type: string; purchase_token: string; product_id: string };
  delivery: { url: string | null; status: number; body: unknown };
}

class ControlError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const DAY = 86_400_000;
const b64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');
const signJwt = (key: KeyObject, kid: string, claims: Record<string, unknown>) => {
  const head = `${b64url(JSON.stringify({ alg: 'RS256', typ: 'JWT', kid }))}.${b64url(JSON.stringify(claims))}`;
  return `${head}.${b64url(createSign('RSA-SHA256').update(head).sign(key))}`;
};

const NOTIFICATION: Record<string, number> = {
  RECOVERED: 1,
  RENEWED: 2,
  CANCELED: 3,
  PURCHASED: 4,
  ON_HOLD: 5,
  IN_GRACE_PERIOD: 6,
  REVOKED: 12,
  EXPIRED: 13,
};

export const startPlayStandIn = async (options: PlayStandInOptions): Promise<PlayStandIn> => {
  const account = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const google = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = `local-${randomUUID().slice(0, 8)}`;
  const periodMs = options.periodMs ?? 30 * DAY;
  const graceMs = options.graceMs ?? 7 * DAY;
  const purchases = new Map<string, Purchase>();
  const byOwner = new Map<string, Purchase>();
  const accessTokens = new Set<string>();
  let pushUrl: string | undefined;
  let outage: number | undefined;
  // Pub/Sub message ids are unique numeric strings: each stand-in starts at a random point, so two
  // stand-ins writing to one table (the test files share DynamoDB Local) never replay each other's
  // ids into the receiver's deduplication (a full run once found a purchase 'deduplicated').
  let messages = randomInt(1, 2 ** 40) * 1_000;
  let endpoint = '';

  const pushToken = (claims: Record<string, unknown> = {}, key: KeyObject = google.privateKey) => {
    const now = Math.floor(Date.now() / 1000);
    return signJwt(key, kid, {
      iss: 'https://accounts.google.com',
      aud: options.pushAudience,
      azp: '1234567890',
      email: options.pushServiceAccount,
      email_verified: true,
      sub: '1234567890',
      iat: now,
      exp: now + 3600,
      ...claims,
    });
  };

  const change = (type: string, p: Purchase) => {
    const now = Date.now();
    switch (type) {
      case 'RENEWED':
      case 'RECOVERED':
        Object.assign(p, {
          state: 'SUBSCRIPTION_STATE_ACTIVE',
          expiry: Math.max(p.expiry, now) + periodMs,
          orders: p.orders + 1,
          autoRenew: true,
        });
        return;
      case 'IN_GRACE_PERIOD':
        Object.assign(p, { state: 'SUBSCRIPTION_STATE_IN_GRACE_PERIOD', expiry: now + graceMs });
        return;
      case 'ON_HOLD':
        Object.assign(p, { state: 'SUBSCRIPTION_STATE_ON_HOLD', expiry: now });
        return;
      case 'CANCELED':
        if (p.subscription) Object.assign(p, { state: 'SUBSCRIPTION_STATE_CANCELED', autoRenew: false });
        else p.purchaseState = 1;
        return;
      case 'EXPIRED':
      case 'REVOKED':
        Object.assign(p, {
          state: 'SUBSCRIPTION_STATE_EXPIRED',
          expiry: Math.min(p.expiry, now),
          autoRenew: false,
        });
        return;
      case 'VOIDED':
        if (p.subscription)
          Object.assign(p, { state: 'SUBSCRIPTION_STATE_EXPIRED', expiry: Math.min(p.expiry, now) });
        else p.purchaseState = 1;
        return;
      default:
        throw new ControlError(400, `Unknown type ${type} (${GOOGLE_PAY_TYPES.join(', ')})`);
    }
  };

  const notify = async (input: PlayNotifyInput): Promise<PlayOutcome> => {
    const type = String(input.type);
    if (!(GOOGLE_PAY_TYPES as readonly string[]).includes(type))
      throw new ControlError(400, `Unknown type ${type} (${GOOGLE_PAY_TYPES.join(', ')})`);
    const target = String(input.target ?? '');
    const oneTime = target.startsWith('ppv:');
    const id = oneTime ? target.slice(4) : target;
    const appToken = await options.appTokenOf(String(input.account_id));
    if (!appToken) throw new ControlError(404, `No account ${input.account_id}`);
    let productId: string;
    try {
      productId = productIdOf(
        options.productPrefix,
        oneTime ? { kind: 'purchase', contentId: id } : { kind: 'subscription', creatorId: id },
      );
    } catch {
      throw new ControlError(400, `Not a catalogue id: ${id}`);
    }
    const key = `${appToken}|${productId}`;
    let p = byOwner.get(key);
    const now = Date.now();
    if (type === 'PURCHASED') {
      p = {
        token: `${oneTime ? 'ppv' : 'sub'}.${randomUUID()}`,
        productId,
        appToken,
        subscription: !oneTime,
        state: oneTime ? '' : 'SUBSCRIPTION_STATE_ACTIVE',
        expiry: now + periodMs,
        autoRenew: true,
        acknowledged: false,
        start: now,
        orders: 0,
        purchaseState: 0,
      };
      purchases.set(p.token, p);
      byOwner.set(key, p);
    } else if (!p) throw new ControlError(409, `${type}: nothing bought yet (send PURCHASED first)`);
    else change(type, p);
    const base = { version: '1.0', packageName: options.packageName, eventTimeMillis: String(now) };
    const notification =
      type === 'VOIDED'
        ? {
            ...base,
            voidedPurchaseNotification: {
              purchaseToken: p.token,
              orderId: `GPA.0000-${p.orders}`,
              productType: p.subscription ? 1 : 2,
              refundType: 1,
            },
          }
        : p.subscription
          ? {
              ...base,
              subscriptionNotification: {
                version: '1.0',
                notificationType: NOTIFICATION[type],
                purchaseToken: p.token,
              },
            }
          : {
              ...base,
              oneTimeProductNotification: {
                version: '1.0',
                notificationType: type === 'CANCELED' ? 2 : 1,
                purchaseToken: p.token,
                sku: p.productId,
              },
            };
    const messageId = String(messages++);
    const out = { message_id: messageId, type, purchase_token: p.token, product_id: p.productId };
    if (!pushUrl || input.deliver === false)
      return {
        notification: out,
        delivery: {
          url: null,
          status: 0,
          body: pushUrl ? 'not delivered (deliver: false)' : 'no push endpoint registered',
        },
      };
    const res = await fetch(pushUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${pushToken()}` },
      body: JSON.stringify({
        message: {
          data: Buffer.from(JSON.stringify(notification)).toString('base64'),
          messageId,
          publishTime: new Date(now).toISOString(),
        },
        subscription: 'projects/local/subscriptions/play-rtdn-push',
      }),
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {}
    return { notification: out, delivery: { url: pushUrl, status: res.status, body } };
  };

  const subscriptionV2 = (p: Purchase) => ({
    kind: 'androidpublisher#subscriptionPurchaseV2',
    regionCode: 'US',
    startTime: new Date(p.start).toISOString(),
    subscriptionState: p.state,
    latestOrderId: `GPA.0000-${p.orders}`,
    acknowledgementState: p.acknowledged
      ? 'ACKNOWLEDGEMENT_STATE_ACKNOWLEDGED'
      : 'ACKNOWLEDGEMENT_STATE_PENDING',
    externalAccountIdentifiers: { obfuscatedExternalAccountId: p.appToken },
    lineItems: [
      {
        productId: p.productId,
        expiryTime: new Date(p.expiry).toISOString(),
        autoRenewingPlan: {
          autoRenewEnabled: p.autoRenew,
          recurringPrice: { currencyCode: 'USD', units: '4', nanos: 990_000_000 },
        },
      },
    ],
  });
  const productPurchase = (p: Purchase) => ({
    kind: 'androidpublisher#productPurchase',
    purchaseTimeMillis: String(p.start),
    purchaseState: p.purchaseState,
    consumptionState: 0,
    orderId: `GPA.0000-${p.orders}`,
    acknowledgementState: p.acknowledged ? 1 : 0,
    obfuscatedExternalAccountId: p.appToken,
    regionCode: 'US',
  });

  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const readBody = async (req: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  };
  const apiError = (res: ServerResponse, status: number, message: string) =>
    json(res, status, {
      error: {
        code: status,
        message,
        status: status === 404 ? 'NOT_FOUND' : status === 401 ? 'UNAUTHENTICATED' : 'UNAVAILABLE',
      },
    });

  const publicKey = createPublicKey(account.privateKey);
  const grant = (assertion: string): string | undefined => {
    const [head, body, sig] = assertion.split('.');
    if (!head || !body || !sig) return undefined;
    const ok = createVerify('RSA-SHA256')
      .update(`${head}.${body}`)
      .verify(publicKey, Buffer.from(sig, 'base64url'));
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString()) as { aud?: string; exp?: number };
    if (!ok || claims.aud !== `${endpoint}/token` || (claims.exp ?? 0) * 1000 < Date.now()) return undefined;
    const token = `ya29.local-${randomUUID()}`;
    accessTokens.add(token);
    return token;
  };

  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://local');
      const path = decodeURIComponent(url.pathname);
      if (req.method === 'POST' && path === '/_standin/notify') {
        let input: PlayNotifyInput;
        try {
          input = JSON.parse(await readBody(req));
        } catch {
          throw new ControlError(400, 'Body must be JSON');
        }
        return json(res, 200, await notify(input));
      }
      if (req.method === 'GET' && path === '/oauth2/v3/certs') {
        const jwk = createPublicKey(google.privateKey).export({ format: 'jwk' });
        return json(res, 200, { keys: [{ ...jwk, kid, alg: 'RS256', use: 'sig' }] });
      }
      if (req.method === 'POST' && path === '/token') {
        const form = new URLSearchParams(await readBody(req));
        const token =
          form.get('grant_type') === 'urn:ietf:params:oauth:grant-type:jwt-bearer'
            ? grant(form.get('assertion') ?? '')
            : undefined;
        return token
          ? json(res, 200, { access_token: token, expires_in: 3599, token_type: 'Bearer' })
          : json(res, 400, { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' });
      }
      const api =
        /^\/androidpublisher\/v3\/applications\/([^/]+)\/purchases\/(subscriptionsv2|subscriptions|products)\/(?:([^/]+)\/)?tokens\/([^/:]+)(:acknowledge)?$/.exec(
          path,
        );
      if (api) {
        const bearer = req.headers.authorization?.replace(/^Bearer /, '');
        if (!bearer || !accessTokens.has(bearer))
          return apiError(res, 401, 'Request had invalid authentication credentials.');
        if (outage !== undefined) return apiError(res, outage, 'The service is currently unavailable.');
        const [, pkg, kind, productId, token, ack] = api;
        const p = purchases.get(token ?? '');
        if (pkg !== options.packageName || !p || (kind === 'products' && p.productId !== productId))
          return apiError(res, 404, 'The purchase token was not found.');
        if (ack && req.method === 'POST') {
          p.acknowledged = true;
          return json(res, 200, {});
        }
        if (req.method === 'GET' && kind === 'subscriptionsv2' && p.subscription)
          return json(res, 200, subscriptionV2(p));
        if (req.method === 'GET' && kind === 'products' && !p.subscription)
          return json(res, 200, productPurchase(p));
        return apiError(res, 404, 'The purchase token was not found.');
      }
      json(res, 404, { error: { message: `No route ${req.method} ${path}` } });
    } catch (error) {
      if (error instanceof ControlError)
        return json(res, error.status, { error: { message: error.message } });
      json(res, 500, { error: { message: (error as Error).message } });
    }
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    endpoint,
    serviceAccount: {
      client_email: 'play-api@creator-streaming-local.iam.gserviceaccount.com',
      private_key: account.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
      token_uri: `${endpoint}/token`,
    },
    jwksUrl: `${endpoint}/oauth2/v3/certs`,
    connect: (url) => {
      pushUrl = url;
    },
    pushToken,
    notify,
    purchase: (token) => purchases.get(token),
    outage: (status) => {
      outage = status;
    },
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

/** Points the functions at `standIn`: the Play API and JWKS URLs, the service account in the Play secret. */
export const usePlayStandIn = (standIn: PlayStandIn): void => {
  process.env.PLAY_API_URL = standIn.endpoint;
  process.env.PLAY_PUSH_JWKS_URL = standIn.jwksUrl;
  process.env.LOCAL_PLAY_SECRET = JSON.stringify(standIn.serviceAccount);
};
