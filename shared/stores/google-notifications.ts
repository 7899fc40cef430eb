import { JwtVerifier } from 'aws-jwt-verify/jwt-verifier';
import { perContainer } from '../aws/local-hook.ts';
import { setting } from '../config.ts';
import { getEntitlement } from '../entitlements/entitlement-repository.ts';
import { entitlementView } from '../entitlements/my-entitlements.ts';
import { ForbiddenError, UnauthorizedError, ValidationError } from '../errors/errors.ts';
import { accountIdOfAppToken } from '../identity/account-repository.ts';
import { fetchedJwksCache } from '../identity/google.ts';
import type { StoreReceipt } from './apple-notifications.ts';
import { type Kind, syncPlayPurchase } from './google-sync.ts';
import { itemOfProduct } from './apply.ts';
import { REVOKED, SUBSCRIPTION_NOTIFICATION_TYPES } from './google.ts';
import { getProduct, getSubscription, UnknownPurchaseError } from './play-client.ts';
import {
  linkedProductOf,
  linkPurchase,
  markNotificationProcessed,
  notificationProcessed,
} from './store-repository.ts';

/**
 * Google Play's Real-time developer notifications, pushed by Pub/Sub, and the app's purchase links
 * (docs/payments.md, "App stores: Google Play"). A push is believed only with Pub/Sub's OIDC token
 * (`Authorization: Bearer`, signed by Google: issuer accounts.google.com, the configured audience,
 * the push subscription's service account as a verified `email`), checked with aws-jwt-verify
 * before anything is read or written; each `messageId` is processed once; the purchase is then READ
 * from the Play Developer API and its state applied; a purchase still unacknowledged is
 * acknowledged after its entitlement is stored (Google refunds it after 3 days otherwise).
 */
const ISSUER = 'https://accounts.google.com';

/** Google's keys (PLAY_PUSH_JWKS_URL names others: the local stand-in), fetched with the platform's fetch. */
const pushVerifier = /* @__PURE__ */ perContainer(() =>
  JwtVerifier.create(
    {
      issuer: ISSUER,
      audience: setting('PLAY_PUSH_AUDIENCE'),
      jwksUri: process.env.PLAY_PUSH_JWKS_URL || 'https://www.googleapis.com/oauth2/v3/certs',
      customJwtCheck: ({ header, payload }) => {
        if (header.alg !== 'RS256') throw new Error('Unexpected algorithm');
        if (payload.email !== setting('PLAY_PUSH_SERVICE_ACCOUNT') || payload.email_verified !== true)
          throw new Error('Not the push subscription service account');
      },
    },
    { jwksCache: fetchedJwksCache() },
  ),
);

/** 401 unless the push carries Pub/Sub's valid OIDC token for this subscription. */
export const verifyPush = async (authorization: string | undefined): Promise<void> => {
  const token = /^Bearer (\S+)$/i.exec(authorization ?? '')?.[1];
  if (!token) throw new UnauthorizedError('Missing Pub/Sub push token');
  try {
    await pushVerifier().verify(token);
  } catch {
    throw new UnauthorizedError('Invalid Pub/Sub push token');
  }
};

/** The developer notification inside a push (`message.data`, base64 JSON). */
export interface DeveloperNotification {
  packageName?: string;
  eventTimeMillis?: string;
  subscriptionNotification?: { notificationType?: number; purchaseToken?: string; subscriptionId?: string };
  oneTimeProductNotification?: { notificationType?: number; purchaseToken?: string; sku?: string };
  voidedPurchaseNotification?: { purchaseToken?: string; orderId?: string; productType?: number };
  testNotification?: unknown;
}

const decode = (data: string): DeveloperNotification => {
  try {
    const parsed = JSON.parse(Buffer.from(data, 'base64').toString('utf8')) as unknown;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
      return parsed as DeveloperNotification;
  } catch {}
  throw new ValidationError([
    { field: 'message.data', message: 'must be a base64 JSON developer notification' },
  ]);
};

/** What a notification names: the purchase, its kind, and whether it says revoked or voided. */
const subjectOf = (n: DeveloperNotification) => {
  if (n.subscriptionNotification?.purchaseToken) {
    const type = n.subscriptionNotification.notificationType ?? 0;
    return {
      type: SUBSCRIPTION_NOTIFICATION_TYPES[type] ?? `SUBSCRIPTION_${type}`,
      token: n.subscriptionNotification.purchaseToken,
      kind: { subscription: true, productId: n.subscriptionNotification.subscriptionId } as Kind,
      flags: { revoked: type === REVOKED },
    };
  }
  if (n.oneTimeProductNotification?.purchaseToken && n.oneTimeProductNotification.sku) {
    const type = n.oneTimeProductNotification.notificationType;
    return {
      type: type === 2 ? 'ONE_TIME_PRODUCT_CANCELED' : 'ONE_TIME_PRODUCT_PURCHASED',
      token: n.oneTimeProductNotification.purchaseToken,
      kind: { subscription: false, productId: n.oneTimeProductNotification.sku } as Kind,
      flags: {},
    };
  }
  return undefined;
};

/** `POST /billing/google/notifications`: one Pub/Sub push. */
export const receiveGoogleNotification = async (
  authorization: string | undefined,
  message: { messageId: string; data: string },
  now: Date,
): Promise<StoreReceipt> => {
  await verifyPush(authorization);
  const n = decode(message.data);
  const receipt = { received: true as const, notification_id: message.messageId };
  const voided = n.voidedPurchaseNotification;
  const subject = voided?.purchaseToken ? undefined : subjectOf(n);
  const type = voided ? 'VOIDED_PURCHASE' : (subject?.type ?? (n.testNotification ? 'TEST' : 'UNKNOWN'));
  if (await notificationProcessed('google', message.messageId))
    return { ...receipt, type, outcome: 'duplicate' };
  if (n.packageName !== setting('GOOGLE_PLAY_PACKAGE')) {
    await markNotificationProcessed('google', { id: message.messageId, type }, now);
    return { ...receipt, type, outcome: 'ignored' };
  }
  let applied: Awaited<ReturnType<typeof syncPlayPurchase>>;
  try {
    if (voided?.purchaseToken) {
      // A voided purchase: the refunded subscription or product, whichever the token is.
      const linked = await getEntitlementByToken(voided.purchaseToken, voided.productType === 2);
      applied = linked
        ? await syncPlayPurchase(voided.purchaseToken, linked, {
            voided: true,
            voidedOrderId: voided.orderId,
          })
        : undefined;
    } else if (subject) applied = await syncPlayPurchase(subject.token, subject.kind, subject.flags);
  } catch (error) {
    if (!(error instanceof UnknownPurchaseError)) throw error;
    applied = undefined;
  }
  // An account or product we do not know is not marked: Pub/Sub's retries may find it later.
  if (!applied) return { ...receipt, type, outcome: 'ignored' };
  await markNotificationProcessed('google', { id: message.messageId, type }, now);
  return { ...receipt, type, outcome: applied.written ? 'processed' : 'ignored' };
};

/** The kind of a voided token: a one-time product needs its product id, from the link the app made. */
const getEntitlementByToken = async (purchaseToken: string, oneTime: boolean): Promise<Kind | undefined> => {
  if (!oneTime) return { subscription: true };
  const link = await linkedProductOf(purchaseToken);
  return link ? { subscription: false, productId: link } : undefined;
};

/**
 * `POST /billing/google/purchases`: the app links a purchase token to the caller right after the
 * purchase (a purchase made without the obfuscated account id is found this way), then it is read
 * and applied at once. 403 when the purchase carries another account's app token or was linked by
 * another account first.
 */
export const linkGooglePurchase = async (
  accountId: string,
  input: { purchase_token: string; product_id: string },
  now: Date,
) => {
  const item = await itemOfProduct(setting('STORE_PRODUCT_PREFIX'), input.product_id);
  if (!item)
    throw new ValidationError([{ field: 'product_id', message: 'is not a product this platform sells' }]);
  const kind: Kind =
    item.contentId === undefined
      ? { subscription: true, productId: input.product_id }
      : { subscription: false, productId: input.product_id };
  let result: Awaited<ReturnType<typeof syncPlayPurchase>>;
  try {
    const purchase = kind.subscription
      ? (await getSubscription(input.purchase_token)).externalAccountIdentifiers?.obfuscatedExternalAccountId
      : (await getProduct(input.product_id, input.purchase_token)).obfuscatedExternalAccountId;
    const named = purchase ? await accountIdOfAppToken(purchase) : undefined;
    if (named !== undefined && named !== accountId)
      throw new ForbiddenError('This purchase was made by another account');
    const owner = await linkPurchase(input.purchase_token, accountId, input.product_id, now);
    if (owner !== accountId) throw new ForbiddenError('This purchase was made by another account');
    result = await syncPlayPurchase(input.purchase_token, kind, {}, accountId);
  } catch (error) {
    if (error instanceof UnknownPurchaseError)
      throw new ValidationError([
        { field: 'purchase_token', message: 'is not a purchase Google Play knows for this product' },
      ]);
    throw error;
  }
  if (!result)
    throw new ValidationError([{ field: 'product_id', message: 'is not a product this platform sells' }]);
  const { record } = result;
  const stored = await getEntitlement(
    accountId,
    record.kind === 'subscription'
      ? { kind: 'subscription', creatorId: record.creator_id }
      : { kind: 'purchase', creatorId: record.creator_id, contentId: record.content_id ?? '' },
  );
  return entitlementView(stored ?? record, now);
};
