import type { EntitlementRecord } from '../entitlements/entitlement-repository.ts';
import { intervalOf, storePrice } from './catalogue.ts';
import type { ProductPurchase, SubscriptionPurchaseV2 } from './play-client.ts';

/**
 * What a Google Play purchase's current state means for an entitlement (pure; docs/payments.md,
 * "App stores: Google Play"). A Real-time developer notification only says that something
 * changed; the state applied is the one the Play Developer API answers when asked (read at
 * `observedAt`, which orders writes as for Stripe).
 *
 * | subscriptionState (notification) | entitlement |
 * |---|---|
 * | ACTIVE (PURCHASED, RENEWED, RECOVERED, RESTARTED) | `active` until the line item's `expiryTime` |
 * | CANCELED (CANCELED) | `active` until `expiryTime`, `cancel_at_period_end` (the user turned renewal off) |
 * | IN_GRACE_PERIOD | `past_due`, access until `expiryTime` (Google extends it to the grace end) |
 * | ON_HOLD, PAUSED | `past_due` without grace: no access until it recovers |
 * | EXPIRED | `expired` |
 * | PENDING | `pending` |
 * | any, notification REVOKED (12) | `revoked` |
 * | a voided purchase (voidedPurchaseNotification) | `refunded` (a subscription: its latest order voided; google-sync.ts) |
 * | one-time product: purchaseState 0 / 1 / 2 | `active` / `refunded` / `pending` |
 */
export const SUBSCRIPTION_NOTIFICATION_TYPES: Record<number, string> = {
  1: 'SUBSCRIPTION_RECOVERED',
  2: 'SUBSCRIPTION_RENEWED',
  3: 'SUBSCRIPTION_CANCELED',
  4: 'SUBSCRIPTION_PURCHASED',
  5: 'SUBSCRIPTION_ON_HOLD',
  6: 'SUBSCRIPTION_IN_GRACE_PERIOD',
  7: 'SUBSCRIPTION_RESTARTED',
  8: 'SUBSCRIPTION_PRICE_CHANGE_CONFIRMED',
  9: 'SUBSCRIPTION_DEFERRED',
  10: 'SUBSCRIPTION_PAUSED',
  11: 'SUBSCRIPTION_PAUSE_SCHEDULE_CHANGED',
  12: 'SUBSCRIPTION_REVOKED',
  13: 'SUBSCRIPTION_EXPIRED',
  20: 'SUBSCRIPTION_PENDING_PURCHASE_CANCELED',
};
export const REVOKED = 12;

export interface GoogleOwner {
  accountId: string;
  creatorId: string;
  contentId?: string;
}

const micros = (price: { units?: string; nanos?: number }) =>
  Number(price.units ?? 0) * 1_000_000 + Math.round((price.nanos ?? 0) / 1000);

/** The entitlement a subscription's state means. */
export const googleSubscriptionEntitlement = (
  sub: SubscriptionPurchaseV2,
  owner: GoogleOwner,
  ctx: { purchaseToken: string; observedAt: Date; feePercent: number; revoked?: boolean; voided?: boolean },
): EntitlementRecord => {
  const line = sub.lineItems?.[0];
  const expiry = line?.expiryTime ? Date.parse(line.expiryTime) : null;
  const start = sub.startTime ? Date.parse(sub.startTime) : ctx.observedAt.getTime();
  const recurring = line?.autoRenewingPlan?.recurringPrice;
  const base = {
    account_id: owner.accountId,
    kind: 'subscription' as const,
    creator_id: owner.creatorId,
    content_id: null,
    source: 'google' as const,
    started_at: new Date(start).toISOString(),
    observed_at: ctx.observedAt.getTime(),
    provider: { product_id: line?.productId, purchase_token: ctx.purchaseToken, order_id: sub.latestOrderId },
    valid_until: expiry === null ? null : new Date(expiry).toISOString(),
    grace_until: null,
    cancel_at_period_end: line?.autoRenewingPlan?.autoRenewEnabled === false,
    ...(recurring?.currencyCode
      ? {
          price: storePrice(
            { micros: micros(recurring) },
            recurring.currencyCode,
            expiry === null ? 'month' : intervalOf(Math.max(start, expiry - 31 * 86_400_000), expiry),
            ctx.feePercent,
          ),
        }
      : {}),
  };
  if (ctx.voided) return { ...base, status: 'refunded', cancel_at_period_end: false };
  if (ctx.revoked) return { ...base, status: 'revoked', cancel_at_period_end: false };
  switch (sub.subscriptionState) {
    case 'SUBSCRIPTION_STATE_ACTIVE':
      return { ...base, status: 'active' };
    case 'SUBSCRIPTION_STATE_CANCELED':
      return { ...base, status: 'active', cancel_at_period_end: true };
    case 'SUBSCRIPTION_STATE_IN_GRACE_PERIOD':
      return { ...base, status: 'past_due', grace_until: base.valid_until };
    case 'SUBSCRIPTION_STATE_ON_HOLD':
    case 'SUBSCRIPTION_STATE_PAUSED':
      return {
        ...base,
        status: 'past_due',
        valid_until: new Date(Math.min(expiry ?? 0, ctx.observedAt.getTime())).toISOString(),
      };
    case 'SUBSCRIPTION_STATE_PENDING':
      return { ...base, status: 'pending' };
    default:
      return { ...base, status: 'expired', cancel_at_period_end: false };
  }
};

/** The entitlement a one-time product purchase's state means. */
export const googleProductEntitlement = (
  purchase: ProductPurchase,
  owner: GoogleOwner,
  ctx: { productId: string; purchaseToken: string; observedAt: Date; voided?: boolean },
): EntitlementRecord => ({
  account_id: owner.accountId,
  kind: 'purchase',
  creator_id: owner.creatorId,
  content_id: owner.contentId ?? null,
  source: 'google',
  status:
    ctx.voided || purchase.purchaseState === 1
      ? 'refunded'
      : purchase.purchaseState === 2
        ? 'pending'
        : 'active',
  valid_until: null,
  grace_until: null,
  cancel_at_period_end: false,
  started_at: new Date(Number(purchase.purchaseTimeMillis ?? ctx.observedAt.getTime())).toISOString(),
  observed_at: ctx.observedAt.getTime(),
  provider: { product_id: ctx.productId, purchase_token: ctx.purchaseToken, order_id: purchase.orderId },
});
