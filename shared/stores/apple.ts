import type {
  JWSRenewalInfoDecodedPayload,
  JWSTransactionDecodedPayload,
} from '@apple/app-store-server-library';
import type { EntitlementRecord } from '../entitlements/entitlement-repository.ts';
import { intervalOf, storePrice } from './catalogue.ts';

/**
 * What an App Store notification or transaction means for an entitlement (pure; docs/payments.md,
 * "App stores: Apple"). Unlike a Stripe event, Apple's notification carries the state itself,
 * signed (the transaction and renewal info as of `signedDate`), so it is applied as it says, and
 * `signedDate` orders it: `applyEntitlement` never lets an older signed state overwrite a newer one.
 *
 * | notification (subtype) | entitlement |
 * |---|---|
 * | SUBSCRIBED, DID_RENEW, DID_CHANGE_RENEWAL_STATUS, OFFER_REDEEMED, RENEWAL_EXTENDED, REFUND_REVERSED, others with a transaction | `active` until `expiresDate` (`cancel_at_period_end` when auto-renew is off); `expired` if that is already past |
 * | DID_FAIL_TO_RENEW (GRACE_PERIOD) | `past_due`, `valid_until` = `expiresDate`, `grace_until` = the renewal info's `gracePeriodExpiresDate`: access to the grace end, no further notification needed |
 * | DID_FAIL_TO_RENEW (none) | `past_due` without grace: access stops at `expiresDate` (Apple keeps retrying; DID_RENEW BILLING_RECOVERY brings it back) |
 * | GRACE_PERIOD_EXPIRED | `past_due` without grace: no access |
 * | EXPIRED (any subtype) | `expired` |
 * | REFUND | `refunded` (a subscription or a purchase) |
 * | REVOKE | `revoked` (Family Sharing withdrawn) |
 * | ONE_TIME_CHARGE, a one-time transaction | purchase `active` (`refunded`/`revoked` when the transaction carries a `revocationDate`) |
 * | CONSUMPTION_REQUEST, REFUND_DECLINED; REFUND, REFUND_REVERSED of an earlier period's transaction | nothing (`describesNow`) |
 */

export type AppleTransaction = JWSTransactionDecodedPayload;
export type AppleRenewal = JWSRenewalInfoDecodedPayload;

/** Whom and what a transaction is for (resolved from `appAccountToken` and the product id). */
export interface AppleOwner {
  accountId: string;
  creatorId: string;
  /** The pay-per-view item; undefined for a subscription. */
  contentId?: string;
}

export interface AppleChange {
  /** The notification type; undefined for a transaction the app sent (`POST /billing/apple/transactions`). */
  type?: string;
  subtype?: string;
  transaction: AppleTransaction;
  renewal?: AppleRenewal;
  /** The signed data's `signedDate` (epoch ms): the provider time this state is from. */
  signedAt: number;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** Is the transaction an auto-renewable subscription (else a one-time purchase)? */
export const isSubscription = (t: AppleTransaction): boolean => t.type === 'Auto-Renewable Subscription';

/**
 * Does a notification say what the subscription or purchase is now? Not one of a refund flow that
 * names an earlier period's transaction: there `signedTransactionInfo` is the transaction the
 * customer asked about, which may be an earlier period's (Apple's engineers, developer forums
 * thread 774755). So a refund asked for or declined (`CONSUMPTION_REQUEST`, `REFUND_DECLINED`)
 * changes nothing, and a refund made or reversed (`REFUND`, `REFUND_REVERSED`) of a subscription
 * transaction that expired before the latest purchase (the renewal info's `renewalDate`) leaves
 * the current, paid period as it is. Before 2026-12-01 such a notification was applied as the
 * state: a declined refund of last month's charge wrote the subscription `expired` (its
 * transaction had ended), which also took it out of the store reconcile's renewal index.
 */
export const describesNow = (change: AppleChange): boolean => {
  if (change.type === 'CONSUMPTION_REQUEST' || change.type === 'REFUND_DECLINED') return false;
  if (change.type !== 'REFUND' && change.type !== 'REFUND_REVERSED') return true;
  const { transaction: t, renewal } = change;
  return !(
    isSubscription(t) &&
    t.expiresDate !== undefined &&
    renewal?.renewalDate !== undefined &&
    t.expiresDate < renewal.renewalDate
  );
};

/** The entitlement record one signed App Store state means for `owner`. */
export const appleEntitlement = (
  change: AppleChange,
  owner: AppleOwner,
  feePercent: number,
): EntitlementRecord => {
  const { transaction: t, renewal, type, signedAt } = change;
  const subscription = owner.contentId === undefined;
  const expires = t.expiresDate ?? null;
  const base = {
    account_id: owner.accountId,
    creator_id: owner.creatorId,
    source: 'apple' as const,
    started_at: iso(t.originalPurchaseDate ?? t.purchaseDate ?? signedAt),
    observed_at: signedAt,
    provider: {
      product_id: t.productId,
      original_transaction_id: t.originalTransactionId,
      transaction_id: t.transactionId,
    },
    ...(t.price !== undefined && t.currency
      ? {
          price: storePrice(
            { milliunits: t.price },
            t.currency,
            subscription && t.purchaseDate && expires ? intervalOf(t.purchaseDate, expires) : null,
            feePercent,
          ),
        }
      : {}),
  };
  const taken = type === 'REVOKE' ? ('revoked' as const) : ('refunded' as const);
  if (!subscription) {
    const status =
      t.revocationDate !== undefined || type === 'REFUND' || type === 'REVOKE' ? taken : 'active';
    return {
      ...base,
      kind: 'purchase',
      content_id: owner.contentId ?? null,
      status,
      valid_until: null,
      grace_until: null,
      cancel_at_period_end: false,
    };
  }
  const sub = {
    ...base,
    kind: 'subscription' as const,
    content_id: null,
    valid_until: expires === null ? null : iso(expires),
    grace_until: null,
    cancel_at_period_end: renewal?.autoRenewStatus === 0,
  };
  if (type === 'REFUND' || type === 'REVOKE' || t.revocationDate !== undefined)
    return { ...sub, status: taken, cancel_at_period_end: false };
  if (type === 'EXPIRED') return { ...sub, status: 'expired', cancel_at_period_end: false };
  if (type === 'GRACE_PERIOD_EXPIRED') return { ...sub, status: 'past_due' };
  if (type === 'DID_FAIL_TO_RENEW' || renewal?.isInBillingRetryPeriod === true) {
    const grace = renewal?.gracePeriodExpiresDate;
    const inGrace =
      grace !== undefined && (type !== 'DID_FAIL_TO_RENEW' || change.subtype === 'GRACE_PERIOD');
    return { ...sub, status: 'past_due', grace_until: inGrace ? iso(grace) : null };
  }
  if (expires !== null && expires <= signedAt)
    return { ...sub, status: 'expired', cancel_at_period_end: false };
  return { ...sub, status: 'active' };
};
