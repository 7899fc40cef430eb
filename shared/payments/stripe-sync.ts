import type Stripe from 'stripe';
import { applyEntitlement, type EntitlementRecord } from '../entitlements/entitlement-repository.ts';
import { type Earning, recordEarning, recordReversal } from './payout-repository.ts';

/**
 * Applies what Stripe says NOW to the entitlements (docs/payments.md, "Webhooks"). Every event
 * handler and the daily reconcile end here, having re-read the object from Stripe: events arrive
 * out of order, twice, and in parallel (Ghost's stripe service README says the same), so an
 * event only says WHAT to re-read, never what the state is. Each function is idempotent and
 * writes through `applyEntitlement`, whose `observed_at` guard keeps a slower reader's older view
 * from overwriting a newer one.
 */
export interface SyncContext {
  stripe: Stripe;
  /** The read's instant: pass the clock AFTER the Stripe read (it orders writes). */
  now: () => Date;
  graceDays: number;
  feePercent: number;
}

const DAY = 86_400_000;
const iso = (epochSeconds: number) => new Date(epochSeconds * 1000).toISOString();
const idOf = (value: string | { id: string } | null | undefined) =>
  value === null || value === undefined ? undefined : typeof value === 'string' ? value : value.id;

/** The entitlement a Stripe subscription's current state means (pure). */
export const subscriptionEntitlement = (
  sub: Stripe.Subscription,
  observedAt: Date,
  graceDaysAfterFailure: number,
  feePercent: number,
): EntitlementRecord | undefined => {
  const accountId = sub.metadata?.account_id;
  const creatorId = sub.metadata?.creator_id;
  const item = sub.items.data[0];
  if (!accountId || !creatorId || !item) return undefined;
  const amount = item.price.unit_amount ?? 0;
  const interval = item.price.recurring?.interval as NonNullable<EntitlementRecord['price']>['interval'];
  const base = {
    account_id: accountId,
    kind: 'subscription' as const,
    creator_id: creatorId,
    content_id: null,
    source: 'stripe' as const,
    cancel_at_period_end: sub.cancel_at_period_end || sub.cancel_at !== null,
    started_at: iso(sub.start_date),
    observed_at: observedAt.getTime(),
    provider: { customer_id: idOf(sub.customer), subscription_id: sub.id },
    price: {
      amount,
      currency: item.price.currency,
      interval: interval ?? 'month',
      platform_fee: Math.round((amount * feePercent) / 100),
    },
  };
  switch (sub.status) {
    case 'active':
    case 'trialing':
      return { ...base, status: 'active', valid_until: iso(item.current_period_end), grace_until: null };
    case 'past_due':
    case 'unpaid': {
      // Stripe has opened the new period; the last paid one ended where it starts.
      const paidUntil = item.current_period_start * 1000;
      return {
        ...base,
        status: 'past_due',
        valid_until: new Date(paidUntil).toISOString(),
        grace_until: new Date(paidUntil + graceDaysAfterFailure * DAY).toISOString(),
      };
    }
    case 'incomplete':
      return { ...base, status: 'pending', valid_until: null, grace_until: null };
    default:
      // canceled, incomplete_expired, paused: no access.
      return {
        ...base,
        status: 'expired',
        valid_until: iso(sub.ended_at ?? Math.floor(observedAt.getTime() / 1000)),
        grace_until: null,
        cancel_at_period_end: false,
      };
  }
};

/** Re-reads subscription `id` and applies it. */
export const syncSubscription = async (
  ctx: SyncContext,
  id: string,
): Promise<EntitlementRecord | undefined> => {
  const sub = await ctx.stripe.subscriptions.retrieve(id);
  const record = subscriptionEntitlement(sub, ctx.now(), ctx.graceDays, ctx.feePercent);
  if (record) await applyEntitlement(record);
  return record;
};

/** Purchase state of a payment's charge: refunded in full, disputed (not won), or paid. */
const purchaseStatus = async (
  stripe: Stripe,
  intent: Stripe.PaymentIntent,
  charge: Stripe.Charge | undefined,
): Promise<EntitlementRecord['status'] | undefined> => {
  if (intent.status === 'processing') return 'pending';
  if (intent.status !== 'succeeded' || !charge) return undefined;
  if (charge.refunded || charge.amount_refunded >= charge.amount) return 'refunded';
  if (charge.disputed) {
    const disputes = await stripe.disputes.list({ charge: charge.id, limit: 10 });
    return disputes.data.every((d) => d.status === 'won') ? 'active' : 'disputed';
  }
  return 'active';
};

/**
 * Re-reads payment intent `id` (with its latest charge) and applies the purchase it pays for;
 * records the creator's earning on the first sight of a paid charge.
 */
export const syncPurchase = async (ctx: SyncContext, id: string): Promise<EntitlementRecord | undefined> => {
  const intent = await ctx.stripe.paymentIntents.retrieve(id, { expand: ['latest_charge'] });
  const { account_id: accountId, content_id: contentId, creator_id: creatorId } = intent.metadata ?? {};
  if (!accountId || !contentId || !creatorId) return undefined;
  const latest = intent.latest_charge;
  const charge =
    typeof latest === 'string' ? await ctx.stripe.charges.retrieve(latest) : (latest ?? undefined);
  const status = await purchaseStatus(ctx.stripe, intent, charge);
  if (!status) return undefined;
  const now = ctx.now();
  const fee = charge?.application_fee_amount ?? Math.round((intent.amount * ctx.feePercent) / 100);
  const record: EntitlementRecord = {
    account_id: accountId,
    kind: 'purchase',
    creator_id: creatorId,
    content_id: contentId,
    source: 'stripe',
    status,
    valid_until: null,
    grace_until: null,
    cancel_at_period_end: false,
    started_at: iso(intent.created),
    observed_at: now.getTime(),
    provider: { customer_id: idOf(intent.customer), payment_intent_id: intent.id, charge_id: charge?.id },
    price: { amount: intent.amount, currency: intent.currency, interval: null, platform_fee: fee },
  };
  await applyEntitlement(record);
  if (charge && charge.status === 'succeeded') {
    const earning: Earning = {
      creator_id: creatorId,
      source_id: charge.id,
      kind: 'purchase',
      currency: charge.currency,
      gross: charge.amount,
      platform_fee: fee,
      net: charge.amount - fee,
      paid_at: iso(charge.created),
    };
    await recordEarning(earning);
    // Refunds and disputes take money back from the creator too (destination charges: the
    // transfer is reversed): a lost or open dispute the whole charge, else what was refunded.
    const takenBack = status === 'disputed' ? charge.amount : charge.amount_refunded;
    if (takenBack > 0 || charge.refunded || charge.disputed) await recordReversal(earning, takenBack, now);
  }
  return record;
};

/** The subscription an invoice bills, if any. */
export const invoiceSubscription = (invoice: Stripe.Invoice): string | undefined =>
  idOf(invoice.parent?.subscription_details?.subscription);

/** Re-reads invoice `id`: records the earning of a paid one, then syncs its subscription. */
export const syncInvoice = async (ctx: SyncContext, id: string): Promise<void> => {
  const invoice = await ctx.stripe.invoices.retrieve(id);
  const subscriptionId = invoiceSubscription(invoice);
  if (!subscriptionId) return;
  const record = await syncSubscription(ctx, subscriptionId);
  if (record && invoice.status === 'paid' && invoice.amount_paid > 0) {
    const fee = Math.round((invoice.amount_paid * ctx.feePercent) / 100);
    await recordEarning({
      creator_id: record.creator_id,
      source_id: invoice.id,
      kind: 'subscription',
      currency: invoice.currency,
      gross: invoice.amount_paid,
      platform_fee: fee,
      net: invoice.amount_paid - fee,
      paid_at: iso(invoice.status_transitions?.paid_at ?? invoice.created),
    });
  }
};

/**
 * A completed session's siblings, expired: the customer's other open sessions for the same item
 * (same mode, account, creator and item). A retried checkout answers one session for 30 minutes
 * (checkout.ts), but sessions of two windows both lived (60-90 minutes each) and both could be
 * paid: the outside probe of 2026-11-30 paid two for one creator, two subscriptions billing for
 * one entitlement. An already expired or paid one is left as it is.
 */
const expireSiblings = async (ctx: SyncContext, session: Stripe.Checkout.Session): Promise<void> => {
  const customer = idOf(session.customer);
  if (session.status !== 'complete' || !customer) return;
  const same = (other: Stripe.Checkout.Session) =>
    other.id !== session.id &&
    other.mode === session.mode &&
    (['account_id', 'creator_id', 'content_id'] as const).every(
      (key) => other.metadata?.[key] === session.metadata?.[key],
    );
  for await (const other of ctx.stripe.checkout.sessions.list({ customer, status: 'open', limit: 100 }))
    if (same(other)) await expireSession(ctx.stripe, other.id);
};

/**
 * Expires Checkout Session `id`, so it can no longer be paid: one paid or expired meanwhile (400)
 * or gone (404) has nothing left to expire. Used by a paid session's siblings and the purge.
 */
export const expireSession = async (client: Stripe, id: string): Promise<void> => {
  await client.checkout.sessions.expire(id).catch((error: { statusCode?: number }) => {
    if (error.statusCode !== 400 && error.statusCode !== 404) throw error;
  });
};

/**
 * Re-reads checkout session `id` and syncs what it bought (nothing while unpaid); a paid one
 * expires its open siblings (`expireSiblings`).
 */
export const syncCheckout = async (ctx: SyncContext, id: string): Promise<void> => {
  const session = await ctx.stripe.checkout.sessions.retrieve(id);
  const subscriptionId = idOf(session.subscription);
  const intentId = idOf(session.payment_intent);
  if (session.mode === 'subscription' && subscriptionId) await syncSubscription(ctx, subscriptionId);
  else if (session.mode === 'payment' && intentId) await syncPurchase(ctx, intentId);
  await expireSiblings(ctx, session);
};

/** Re-reads charge `id` and syncs the purchase its payment is for (refunds, disputes). */
export const syncCharge = async (ctx: SyncContext, id: string): Promise<void> => {
  const charge = await ctx.stripe.charges.retrieve(id);
  const intentId = idOf(charge.payment_intent);
  if (intentId) await syncPurchase(ctx, intentId);
};
