import { createPublicKey, createVerify, generateKeyPairSync, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { productIdOf } from '../../../shared/stores/catalogue.ts';
import {
  type AppIdentity,
  signedNotification,
  signedRenewal,
  signedTransaction,
  transactionId,
} from './notifications.ts';
import { makeTestChain, type TestChain } from './signing.ts';

/**
 * The App Store stand-in (local-only; docs/payments.md "App stores: locally"): what Apple's side
 * does when an app's subscriber pays, renews, fails to pay, is refunded... Each happening changes
 * its record of the subscription or purchase and sends the V2 notification Apple would send,
 * signed with a test chain shaped like Apple's (made at start; its root is what the platform puts
 * in the App Store secret, as an operator puts Apple's root there), to the notification URL the
 * platform registered (App Store Connect's "App Store Server Notifications" URL). It also serves
 * the App Store Server API call the reconcile makes (`GET /inApps/v1/subscriptions/{id}`:
 * getAllSubscriptionStatuses), for a bearer token signed with the In-App Purchase key it issued
 * (`apiKey`, what goes in the App Store secret beside the root: ES256, audience
 * appstoreconnect-v1, its issuer and key id, the bundle id).
 *
 * Control API (not Apple's), for `npm run pay -- apple` and tests: `POST /_standin/notify` with
 * `{ type: "<NOTIFICATION_TYPE>[:<SUBTYPE>]", account_id, target: "<creator id>" | "ppv:<content id>",
 * deliver?: false }` (`deliver: false`: the happening without its notification, as if Apple's
 * delivery were lost; what the reconcile repairs).
 */
export { APPLE_PAY_TYPES } from './types.ts';
import { APPLE_PAY_TYPES } from './types.ts';

export interface AppStoreStandInOptions {
  port?: number;
  app: AppIdentity;
  productPrefix: string;
  /** The account's app_account_token (undefined: no such account). */
  appTokenOf: (accountId: string) => Promise<string | undefined>;
  /** One billing period (default 30 days) and the grace after a failed renewal (default 16 days, Apple's for monthly plans). */
  periodMs?: number;
  graceMs?: number;
}

interface Holding {
  productId: string;
  appToken: string;
  subscription: boolean;
  originalTransactionId: string;
  transactionId: string;
  purchaseDate: number;
  originalPurchaseDate: number;
  expiresDate?: number;
  autoRenew: 0 | 1;
  retry: boolean;
  graceUntil?: number;
  revokedAt?: number;
  lastSigned: number;
}

export interface AppStoreStandIn {
  endpoint: string;
  chain: TestChain;
  /** The App Store Server API key it accepts (App Store Connect's In-App Purchase key). */
  apiKey: { issuer_id: string; key_id: string; private_key: string };
  /** Where notifications go (the platform's `POST /billing/apple/notifications`). */
  connect(notificationUrl: string): void;
  notify(input: NotifyInput): Promise<NotifyOutcome>;
  /** While set, every App Store Server API call answers this status (an outage); undefined ends it. */
  outage(status: number | undefined): void;
  stop(): Promise<void>;
}

export interface NotifyInput {
  type: string;
  account_id: string;
  target: string;
  /** false: the state changes, the notification is never delivered (a lost delivery). */
  deliver?: boolean;
}

export interface NotifyOutcome {
  notification: {
    uuid: string;
    type: string;
    subtype?: string;
    product_id: string;
    original_transaction_id: string;
  };
  delivery:
    | { url: string; status: number; body: unknown }
    | { url: null; status: 0; body: 'no notification URL registered' | 'not delivered (deliver: false)' };
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

export const startAppStoreStandIn = async (options: AppStoreStandInOptions): Promise<AppStoreStandIn> => {
  const chain = await makeTestChain({ name: 'Local App Store' });
  const periodMs = options.periodMs ?? 30 * DAY;
  const graceMs = options.graceMs ?? 16 * DAY;
  const holdings = new Map<string, Holding>();
  let notificationUrl: string | undefined;
  let outage: number | undefined;
  const apiKeyPair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const apiKey = {
    issuer_id: randomUUID(),
    key_id: `LOCAL${randomUUID().slice(0, 5).toUpperCase()}`,
    private_key: apiKeyPair.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
  };
  const apiPublicKey = createPublicKey(apiKeyPair.privateKey);
  /** Is this the bearer token Apple's API wants: ES256 by our key, for this app? */
  const authorized = (header: string | undefined): boolean => {
    const [head, body, sig] = (header?.replace(/^Bearer /, '') ?? '').split('.');
    if (!head || !body || !sig) return false;
    const ok = createVerify('SHA256')
      .update(`${head}.${body}`)
      .verify({ key: apiPublicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(sig, 'base64url'));
    const h = JSON.parse(Buffer.from(head, 'base64url').toString()) as { alg?: string; kid?: string };
    const c = JSON.parse(Buffer.from(body, 'base64url').toString()) as Record<string, unknown>;
    return (
      ok &&
      h.alg === 'ES256' &&
      h.kid === apiKey.key_id &&
      c.iss === apiKey.issuer_id &&
      c.aud === 'appstoreconnect-v1' &&
      c.bid === options.app.bundleId &&
      Number(c.exp) * 1000 > Date.now()
    );
  };

  const sign = (h: Holding) => {
    h.lastSigned = Math.max(Date.now(), h.lastSigned + 1);
    return h.lastSigned;
  };
  const transactionOf = (h: Holding, at: number) =>
    signedTransaction(chain, options.app, {
      productId: h.productId,
      appAccountToken: h.appToken,
      originalTransactionId: h.originalTransactionId,
      transactionId: h.transactionId,
      type: h.subscription ? 'Auto-Renewable Subscription' : 'Non-Consumable',
      purchaseDate: h.purchaseDate,
      originalPurchaseDate: h.originalPurchaseDate,
      expiresDate: h.expiresDate,
      revocationDate: h.revokedAt,
      signedDate: at,
      price: h.subscription ? 4990 : 2990,
      currency: 'USD',
    });
  const renewalOf = (h: Holding, at: number) =>
    signedRenewal(chain, options.app, {
      productId: h.productId,
      originalTransactionId: h.originalTransactionId,
      autoRenewStatus: h.autoRenew,
      isInBillingRetryPeriod: h.retry,
      gracePeriodExpiresDate: h.graceUntil,
      renewalDate: h.expiresDate,
      signedDate: at,
    });

  /** The happening `type` does to `h` (a new holding for SUBSCRIBED / ONE_TIME_CHARGE); its subtype. */
  const happen = (type: string, asked: string | undefined, h: Holding | undefined, fresh: () => Holding) => {
    const now = Date.now();
    const need = () => {
      if (!h)
        throw new ControlError(409, `${type}: nothing bought yet (send SUBSCRIBED or ONE_TIME_CHARGE first)`);
      return h;
    };
    switch (type) {
      case 'SUBSCRIBED': {
        const again = h !== undefined;
        const s = h ?? fresh();
        Object.assign(s, {
          transactionId: again ? transactionId() : s.transactionId,
          purchaseDate: now,
          expiresDate: now + periodMs,
          autoRenew: 1,
          retry: false,
          graceUntil: undefined,
          revokedAt: undefined,
        });
        return { h: s, subtype: asked ?? (again ? 'RESUBSCRIBE' : 'INITIAL_BUY') };
      }
      case 'ONE_TIME_CHARGE':
        return { h: h ?? fresh(), subtype: asked };
      case 'DID_RENEW': {
        const s = need();
        const recovered = s.retry;
        Object.assign(s, {
          transactionId: transactionId(),
          purchaseDate: now,
          expiresDate: Math.max(s.expiresDate ?? now, now) + periodMs,
          retry: false,
          graceUntil: undefined,
        });
        return { h: s, subtype: asked ?? (recovered ? 'BILLING_RECOVERY' : undefined) };
      }
      case 'DID_CHANGE_RENEWAL_STATUS': {
        const s = need();
        s.autoRenew =
          asked === 'AUTO_RENEW_ENABLED'
            ? 1
            : asked === 'AUTO_RENEW_DISABLED'
              ? 0
              : s.autoRenew === 1
                ? 0
                : 1;
        return { h: s, subtype: s.autoRenew === 1 ? 'AUTO_RENEW_ENABLED' : 'AUTO_RENEW_DISABLED' };
      }
      case 'DID_FAIL_TO_RENEW': {
        const s = need();
        // The period ended now and its renewal could not be charged: Apple retries for 60 days.
        Object.assign(s, {
          expiresDate: Math.min(s.expiresDate ?? now, now),
          retry: true,
          graceUntil: asked === 'GRACE_PERIOD' ? now + graceMs : undefined,
        });
        return { h: s, subtype: asked };
      }
      case 'GRACE_PERIOD_EXPIRED': {
        const s = need();
        Object.assign(s, { retry: true, graceUntil: undefined });
        return { h: s, subtype: asked };
      }
      case 'EXPIRED': {
        const s = need();
        const voluntary = s.autoRenew === 0;
        Object.assign(s, {
          expiresDate: Math.min(s.expiresDate ?? now, now),
          retry: false,
          graceUntil: undefined,
        });
        return { h: s, subtype: asked ?? (voluntary ? 'VOLUNTARY' : 'BILLING_RETRY') };
      }
      case 'REFUND':
      case 'REVOKE': {
        const s = need();
        s.revokedAt = now;
        return { h: s, subtype: asked };
      }
      case 'REFUND_REVERSED': {
        const s = need();
        s.revokedAt = undefined;
        return { h: s, subtype: asked };
      }
      default:
        throw new ControlError(400, `Unknown notification type ${type} (${APPLE_PAY_TYPES.join(', ')})`);
    }
  };

  const notify = async (input: NotifyInput): Promise<NotifyOutcome> => {
    const [type = '', asked] = String(input.type).split(':');
    const target = String(input.target ?? '');
    const purchase = target.startsWith('ppv:');
    const id = purchase ? target.slice(4) : target;
    if (!id) throw new ControlError(400, 'target: a creator id, or ppv:<content id>');
    if ((type === 'ONE_TIME_CHARGE') !== purchase && ['ONE_TIME_CHARGE', 'SUBSCRIBED'].includes(type))
      throw new ControlError(
        400,
        'ONE_TIME_CHARGE buys ppv:<content id>; SUBSCRIBED subscribes to a creator id',
      );
    const appToken = await options.appTokenOf(String(input.account_id));
    if (!appToken) throw new ControlError(404, `No account ${input.account_id}`);
    let productId: string;
    try {
      productId = productIdOf(
        options.productPrefix,
        purchase ? { kind: 'purchase', contentId: id } : { kind: 'subscription', creatorId: id },
      );
    } catch {
      throw new ControlError(400, `Not a catalogue id: ${id}`);
    }
    const key = `${appToken}|${productId}`;
    const fresh = (): Holding => {
      const first = transactionId();
      const now = Date.now();
      return {
        productId,
        appToken,
        subscription: !purchase,
        originalTransactionId: first,
        transactionId: first,
        purchaseDate: now,
        originalPurchaseDate: now,
        autoRenew: 1,
        retry: false,
        lastSigned: 0,
      };
    };
    const { h, subtype } = happen(type, asked, holdings.get(key), fresh);
    holdings.set(key, h);
    const at = sign(h);
    const uuid = randomUUID();
    const signedPayload = signedNotification(chain, options.app, {
      notificationType: type,
      subtype,
      notificationUUID: uuid,
      signedDate: at,
      signedTransactionInfo: transactionOf(h, at),
      ...(h.subscription ? { signedRenewalInfo: renewalOf(h, at) } : {}),
    });
    const notification = {
      uuid,
      type,
      ...(subtype ? { subtype } : {}),
      product_id: productId,
      original_transaction_id: h.originalTransactionId,
    };
    if (!notificationUrl || input.deliver === false)
      return {
        notification,
        delivery: {
          url: null,
          status: 0,
          body: notificationUrl ? 'not delivered (deliver: false)' : 'no notification URL registered',
        },
      };
    const res = await fetch(notificationUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ signedPayload }),
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {}
    return { notification, delivery: { url: notificationUrl, status: res.status, body } };
  };

  /** getAllSubscriptionStatuses: status 1 active, 2 expired, 3 billing retry, 4 grace period, 5 revoked. */
  const statuses = (originalTransactionId: string) => {
    const h = [...holdings.values()].find(
      (x) => x.subscription && x.originalTransactionId === originalTransactionId,
    );
    if (!h) return undefined;
    const now = Date.now();
    const status = h.revokedAt
      ? 5
      : h.graceUntil && h.graceUntil > now
        ? 4
        : h.retry
          ? 3
          : (h.expiresDate ?? 0) > now
            ? 1
            : 2;
    const at = sign(h);
    return {
      environment: options.app.environment,
      bundleId: options.app.bundleId,
      data: [
        {
          subscriptionGroupIdentifier: h.productId,
          lastTransactions: [
            {
              originalTransactionId,
              status,
              signedTransactionInfo: transactionOf(h, at),
              signedRenewalInfo: renewalOf(h, at),
            },
          ],
        },
      ],
    };
  };

  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const readBody = async (req: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  };
  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://local');
      if (req.method === 'POST' && url.pathname === '/_standin/notify') {
        let input: NotifyInput;
        try {
          input = JSON.parse(await readBody(req));
        } catch {
          throw new ControlError(400, 'Body must be JSON');
        }
        return json(res, 200, await notify(input));
      }
      const status = /^\/inApps\/v1\/subscriptions\/([^/]+)$/.exec(url.pathname);
      if (req.method === 'GET' && status) {
        if (!authorized(req.headers.authorization))
          return json(res, 401, { errorCode: 4010000, errorMessage: 'Unauthenticated' });
        if (outage !== undefined)
          return json(res, outage, { errorCode: 5000000, errorMessage: 'An unknown error occurred.' });
        const found = statuses(decodeURIComponent(status[1]!));
        return found
          ? json(res, 200, found)
          : json(res, 404, { errorCode: 4040010, errorMessage: 'Transaction id not found.' });
      }
      json(res, 404, { error: { message: `No route ${req.method} ${url.pathname}` } });
    } catch (error) {
      if (error instanceof ControlError)
        return json(res, error.status, { error: { message: error.message } });
      json(res, 500, { error: { message: (error as Error).message } });
    }
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    chain,
    apiKey,
    connect: (url) => {
      notificationUrl = url;
    },
    notify,
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

/**
 * Points the functions at `standIn`: its App Store Server API in APP_STORE_API_URL, its root and
 * API key in the App Store secret (the host's LOCAL_APP_STORE_SECRET), as an operator puts Apple's
 * root and the In-App Purchase key in the stack's.
 */
export const useAppStoreStandIn = (standIn: AppStoreStandIn): void => {
  process.env.APP_STORE_API_URL = standIn.endpoint;
  process.env.LOCAL_APP_STORE_SECRET = JSON.stringify({
    root_certificates: [standIn.chain.root.toString('base64')],
    ...standIn.apiKey,
  });
};
