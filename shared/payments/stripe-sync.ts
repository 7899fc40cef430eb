import type Stripe from 'stripe';
import {
  applyEntitlement,
  type EntitlementRecord,
  entitlementOutOfStep,
} from '../entitlements/entitlement-repository.ts';
import { getAccount } from '../identity/account-repository.ts';
import { type Earning, earningOutOfStep, recordEarning, recordReversal } from './payout-repository.ts';

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
  /**
   * The clock. A record is stamped with the instant taken BEFORE the Stripe reads it is made
   * from (it orders writes): a read that began before a change may answer the old state, however
   * late its answer comes, so only a read begun later may overwrite what the change wrote. Then
   * the reader of the last change's event, which begins after it, always has the final word.
   * (Stamped after the read, as until stop 58, a slow read of the old state overwrote the change:
   * a cancel's answer said "active" in a clean-clone CI run.)
   */
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
      // The subscription's own percent (set when it was sold), not today's setting.
      platform_fee: Math.round((amount * (sub.application_fee_percent ?? feePercent)) / 100),
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

/** Subscriptions still billing (anything else has ended at Stripe). */
export const BILLING: ReadonlySet<string> = new Set([
  'active',
  'trialing',
  'past_due',
  'unpaid',
  'incomplete',
]);

/**
 * Subscriptions paid up now: the only ones that can be a duplicate or be kept over one. A
 * subscription waiting for its first payment (`incomplete`) or whose renewal failed (`past_due`,
 * `unpaid`) is neither: keeping it would refund the payment that does grant.
 */
export const PAID_UP: ReadonlySet<string> = new Set(['active', 'trialing']);

/**
 * How far apart two payments for one thing are one purchase made twice: a second payment is
 * possible only while the first one's entitlement is unwritten (POST /checkout answers 409 once it
 * is: at most until the daily reconcile) or from a session opened before it (60-90 minutes); 3
 * days (the reconcile's event window) is far beyond both. Two subscriptions started further apart
 * are two purchases (a resubscription), never refunded as a duplicate.
 */
const DUPLICATE_WINDOW_SECONDS = 3 * 86_400;

/** Were `a` and `b` made within DUPLICATE_WINDOW_SECONDS of each other? */
export const withinDuplicateWindow = (a: { created: number }, b: { created: number }): boolean =>
  Math.abs(a.created - b.created) <= DUPLICATE_WINDOW_SECONDS;

/**
 * Of two payments for one thing, the one kept: the earliest `created`, ties by id. Every reader
 * (either payment's webhooks, in any order, retried, and the reconcile) picks the same one.
 */
const earliest = <T extends { id: string; created: number }>(items: readonly T[]): T | undefined =>
  items.reduce<T | undefined>(
    (kept, item) =>
      !kept || item.created < kept.created || (item.created === kept.created && item.id < kept.id)
        ? item
        : kept,
    undefined,
  );

/** What the platform writes on a subscription it cancels and a refund it makes as a duplicate of `keptId`. */
const duplicateMetadata = (keptId: string) => ({ reason: 'duplicate', duplicate_of: keptId });

/** Why the platform refunds a payment in full: Stripe's reason, its metadata, the idempotency key. */
interface FullRefund {
  reason: 'duplicate' | 'requested_by_customer';
  metadata: Record<string, string>;
  idempotencyKey: string;
}

/**
 * Refunds payment intent `intentId`'s charge in full (the transfer to the creator and the
 * platform's fee reversed with it, as a refund of a destination charge must: docs/payments.md).
 * One already refunded, or never paid, is done.
 */
export const refundInFull = async (client: Stripe, intentId: string, why: FullRefund): Promise<void> => {
  const intent = await client.paymentIntents.retrieve(intentId, { expand: ['latest_charge'] });
  const charge = intent.latest_charge;
  if (intent.status !== 'succeeded' || !charge || typeof charge === 'string') return;
  if (charge.amount_refunded < charge.amount)
    await client.refunds
      .create(
        {
          payment_intent: intentId,
          reason: why.reason,
          metadata: why.metadata,
          ...(charge.transfer_data?.destination ? { reverse_transfer: true } : {}),
          ...(charge.application_fee_amount ? { refund_application_fee: true } : {}),
        },
        { idempotencyKey: why.idempotencyKey },
      )
      .catch((error: { code?: string }) => {
        if (error.code !== 'charge_already_refunded') throw error;
      });
};

/** Refunds payment intent `intentId` in full as a duplicate of `keptId` (reason `duplicate`). */
const refundDuplicate = (ctx: SyncContext, intentId: string, keptId: string): Promise<void> =>
  refundInFull(ctx.stripe, intentId, {
    reason: 'duplicate',
    metadata: duplicateMetadata(keptId),
    idempotencyKey: `duplicate-refund-${intentId}-of-${keptId}`,
  });

/**
 * The refund of a payment made for an account after its `DELETE /me` (a Checkout Session opened
 * before the deletion, paid before the purge expired it): the buyer asked to be gone, so nothing
 * is granted and the money goes back (docs/payments.md, "A payment from a deleted account").
 */
export const deletedAccountRefund = (intentId: string): FullRefund => ({
  reason: 'requested_by_customer',
  metadata: { reason: 'account_deleted' },
  idempotencyKey: `account-deleted-refund-${intentId}`,
});

/**
 * Was `intent` paid (its latest charge, expanded, succeeded) after `deletedAt` (an ISO instant)?
 * Stripe's `created` is whole seconds: a charge of the deletion's own second counts as before it
 * (it may have been: a purchase paid, then the account deleted at once, is the buyer's).
 */
export const paidSince = (intent: Stripe.PaymentIntent, deletedAt: string | undefined): boolean => {
  const charge = intent.latest_charge;
  if (deletedAt === undefined || !charge || typeof charge === 'string' || charge.status !== 'succeeded')
    return false;
  return charge.created * 1000 > Date.parse(deletedAt);
};

/** When account `accountId` was deleted (`DELETE /me`), if it was: one consistent GetItem. */
const deletedAtOf = async (accountId: string | undefined): Promise<string | undefined> =>
  accountId ? (await getAccount(accountId, true))?.deleted_at : undefined;

/** Was `intent` (its latest charge expanded) paid after its account's `DELETE /me`? One GetItem. */
const paidAfterDeletion = async (intent: Stripe.PaymentIntent): Promise<boolean> => {
  const charge = intent.latest_charge;
  if (!charge || typeof charge === 'string' || charge.status !== 'succeeded') return false;
  return paidSince(intent, await deletedAtOf(intent.metadata?.account_id));
};

/**
 * Of `invoices` (paid ones: a subscription's, or a customer's), those paid after `deletedAt` (a
 * payment's charge in a later second: `paidSince`), each such payment refunded in full as a
 * payment from a deleted account (`deletedAccountRefund`: one idempotency key per payment intent,
 * so a retried webhook, a purge run twice or both together refund once). Answers the invoices
 * found, already refunded ones included (what their earnings must show).
 */
export const refundInvoicesPaidSince = async (
  client: Stripe,
  invoices: AsyncIterable<Stripe.Invoice>,
  deletedAt: string,
): Promise<Stripe.Invoice[]> => {
  const found: Stripe.Invoice[] = [];
  for await (const invoice of invoices) {
    if (invoice.status !== 'paid' || invoice.amount_paid <= 0) continue;
    // Paid (all of it) by the deletion's second: its charges were made before (no read).
    const paidAt = invoice.status_transitions?.paid_at;
    if (paidAt && paidAt * 1000 <= Date.parse(deletedAt)) continue;
    let after = false;
    for await (const payment of paidPaymentsOf(client, invoice)) {
      const intentId = idOf(payment.payment.payment_intent);
      if (!intentId) continue;
      const intent = await client.paymentIntents.retrieve(intentId, { expand: ['latest_charge'] });
      if (!paidSince(intent, deletedAt)) continue;
      after = true;
      await refundInFull(client, intentId, deletedAccountRefund(intentId));
    }
    if (after) found.push(invoice);
  }
  return found;
};

/**
 * A subscription of an account deleted at `deletedAt` (docs/payments.md, "A payment from a
 * deleted account"): each invoice paid after the deletion (a renewal, or a first invoice of a
 * session opened before it) refunded in full (`refundInvoicesPaidSince`), its creator's earning
 * recorded and reversed whole, and the subscription cancelled at once: the deleted account can
 * never use what it paid for. True when there was such an invoice: then nothing is granted (no
 * entitlement written into a partition its purge is deleting), as for a pay-per-view.
 */
const refundSubscriptionPaidAfterDeletion = async (
  ctx: SyncContext,
  sub: Stripe.Subscription,
  deletedAt: string,
): Promise<boolean> => {
  const invoices = ctx.stripe.invoices.list({ subscription: sub.id, status: 'paid', limit: 100 });
  const refunded = await refundInvoicesPaidSince(ctx.stripe, invoices, deletedAt);
  if (refunded.length === 0) return false;
  for (const invoice of refunded) await syncInvoiceEarning(ctx, invoice, sub);
  if (BILLING.has(sub.status)) await cancelAtOnce(ctx.stripe, sub.id);
  return true;
};

/**
 * The platform's percent on a subscription's invoices: the subscription's own
 * (`application_fee_percent`, set when it was sold: what Stripe takes), not today's setting,
 * which may have changed since; today's only for one sold without.
 */
const feePercentOf = (ctx: SyncContext, sub: InvoiceSubscription): number =>
  sub.application_fee_percent ?? ctx.feePercent;

/** What an invoice's earning needs of its subscription: its creator and fee percent (neither changes). */
export type InvoiceSubscription = Pick<Stripe.Subscription, 'id' | 'metadata' | 'application_fee_percent'>;

/** What `chargeReversal` reads of a charge. */
export type ChargeFacts = Pick<Stripe.Charge, 'id' | 'amount' | 'amount_refunded' | 'refunded' | 'disputed'>;

/**
 * What the daily reconcile's listings already hold, so an invoice's check asks Stripe only for
 * the rest: subscriptions by id, and payment intents' latest charges by payment intent id.
 */
export interface HeldReads {
  subscriptions?: ReadonlyMap<string, InvoiceSubscription>;
  charges?: ReadonlyMap<string, ChargeFacts>;
}

/** The creator's earning of a paid invoice of `sub` (gross, the platform's fee, net). */
const invoiceEarning = (
  ctx: SyncContext,
  invoice: Stripe.Invoice,
  sub: InvoiceSubscription,
  creatorId: string,
): Earning => {
  const fee = Math.round((invoice.amount_paid * feePercentOf(ctx, sub)) / 100);
  return {
    creator_id: creatorId,
    source_id: invoice.id,
    kind: 'subscription',
    currency: invoice.currency,
    gross: invoice.amount_paid,
    platform_fee: fee,
    net: invoice.amount_paid - fee,
    paid_at: iso(invoice.status_transitions?.paid_at ?? invoice.created),
  };
};

/** What refunds and disputes did to a charge (`chargeReversal`). */
interface ChargeReversal {
  /** Refunded in full. */
  refunded: boolean;
  /** A dispute open or lost (a charge refunded in full is `refunded` whatever its disputes). */
  disputed: boolean;
  /** What they took back from the creator (destination charges: the transfer goes back with them). */
  takenBack: number;
  /** Whether anything ever did (a won dispute's 0 still replaces an open one's reversal). */
  reversed: boolean;
}

/**
 * What refunds and disputes took back of a charge: the whole charge while a dispute is open or
 * lost, else what was refunded. The one reading of a charge's refunds and disputes, for a
 * pay-per-view payment's state and earning and a subscription invoice's earning alike; its
 * disputes are listed only for a disputed charge not refunded in full.
 */
const chargeReversal = async (stripe: Stripe, charge: ChargeFacts): Promise<ChargeReversal> => {
  const refunded = charge.refunded || charge.amount_refunded >= charge.amount;
  const disputed =
    !refunded &&
    charge.disputed &&
    !(await stripe.disputes.list({ charge: charge.id, limit: 10 })).data.every((d) => d.status === 'won');
  return {
    refunded,
    disputed,
    takenBack: disputed ? charge.amount : charge.amount_refunded,
    reversed: charge.refunded || charge.disputed,
  };
};

/** A creator's earning as Stripe says it is now, with what refunds and disputes took back of it. */
interface EarningRead {
  earning: Earning;
  takenBack: number;
  reversed: boolean;
}

/** Records an earning once and, when anything was ever taken back, its reversal as observed at `observedAt`. */
const applyEarning = async (read: EarningRead | undefined, observedAt: Date): Promise<void> => {
  if (!read) return;
  await recordEarning(read.earning);
  if (read.takenBack > 0 || read.reversed) await recordReversal(read.earning, read.takenBack, observedAt);
};

/** An invoice's paid payments: those it came with (`expand[]=payments`, all of them), else listed. */
const paidPaymentsOf = (client: Stripe, invoice: Stripe.Invoice) =>
  invoice.payments && !invoice.payments.has_more
    ? invoice.payments.data.filter((payment) => payment.status === 'paid')
    : client.invoicePayments.list({ invoice: invoice.id, status: 'paid', limit: 100 });

/** Payment intent `id`'s latest charge, if any. */
const latestCharge = async (ctx: SyncContext, id: string): Promise<Stripe.Charge | undefined> => {
  const charge = (await ctx.stripe.paymentIntents.retrieve(id, { expand: ['latest_charge'] })).latest_charge;
  return charge && typeof charge !== 'string' ? charge : undefined;
};

/**
 * A paid subscription invoice's earning and what its charges' refunds and disputes took back, as
 * Stripe says now (nothing written); what `held` holds is not asked again. Undefined without a
 * paid amount, a subscription or a creator.
 */
const readInvoiceEarning = async (
  ctx: SyncContext,
  invoice: Stripe.Invoice,
  held: HeldReads = {},
): Promise<EarningRead | undefined> => {
  const subscriptionId = invoiceSubscription(invoice);
  if (invoice.status !== 'paid' || invoice.amount_paid <= 0 || !subscriptionId) return undefined;
  const sub =
    held.subscriptions?.get(subscriptionId) ?? (await ctx.stripe.subscriptions.retrieve(subscriptionId));
  const creatorId = sub.metadata?.creator_id;
  if (!creatorId) return undefined;
  let takenBack = 0;
  let reversed = false;
  for await (const payment of paidPaymentsOf(ctx.stripe, invoice)) {
    const intentId = idOf(payment.payment.payment_intent);
    const charge = intentId && (held.charges?.get(intentId) ?? (await latestCharge(ctx, intentId)));
    if (!charge) continue;
    const back = await chargeReversal(ctx.stripe, charge);
    takenBack += back.takenBack;
    reversed ||= back.reversed;
  }
  return {
    earning: invoiceEarning(ctx, invoice, sub, creatorId),
    takenBack: Math.min(takenBack, invoice.amount_paid),
    reversed,
  };
};

/**
 * A paid subscription invoice's earning and what its charges' refunds and disputes took back
 * (`EARNING#<invoice>` and `EARNING#<invoice>#reversal`, as a purchase's: docs/payments.md,
 * "Earnings"): recorded once, the reversal set to what the charges say now (a refund by hand in
 * the dashboard, a chargeback, a duplicate's refund). Without a creator or payment: nothing.
 * `sub`: its subscription as the caller read it (only its creator and fee percent are used,
 * which never change), else it is read.
 */
const syncInvoiceEarning = async (
  ctx: SyncContext,
  invoice: Stripe.Invoice,
  sub?: InvoiceSubscription,
): Promise<void> => {
  const observedAt = ctx.now(); // before the reads of its charges (SyncContext.now)
  const subscriptions = sub ? new Map([[sub.id, sub]]) : undefined;
  await applyEarning(await readInvoiceEarning(ctx, invoice, { subscriptions }), observedAt);
};

/**
 * The daily reconcile's check of one paid subscription invoice: its creator's earning and what its
 * charges' refunds and disputes took back, as Stripe says now (what the run's listings hold,
 * `held`, is not asked again). True when they differed from what the table holds and were
 * repaired through the webhook's own path (`syncInvoiceEarning`, as a charge's event does, read
 * again); nothing is written otherwise, so a daily run does not move a reversal to its own month.
 */
export const reconcileInvoice = async (
  ctx: SyncContext,
  invoice: Stripe.Invoice,
  held: HeldReads,
): Promise<boolean> => {
  const read = await readInvoiceEarning(ctx, invoice, held);
  if (!read || !(await earningOutOfStep(read.earning, read.takenBack))) return false;
  await syncInvoiceEarning(ctx, invoice);
  return true;
};

/**
 * A subscription cancelled as a duplicate of `keptId`: each paid invoice's charge refunded in full
 * and the creator's earning of it reversed (`syncInvoiceEarning`), so the creator is not credited
 * for it. Idempotent: a retried webhook refunds nothing twice and writes the same lines.
 */
const refundDuplicateSubscription = async (ctx: SyncContext, sub: Stripe.Subscription, keptId: string) => {
  for await (const invoice of ctx.stripe.invoices.list({
    subscription: sub.id,
    status: 'paid',
    limit: 100,
  })) {
    if (invoice.amount_paid <= 0) continue;
    for await (const payment of ctx.stripe.invoicePayments.list({
      invoice: invoice.id,
      status: 'paid',
      limit: 100,
    })) {
      const intentId = idOf(payment.payment.payment_intent);
      if (intentId) await refundDuplicate(ctx, intentId, keptId);
    }
    await syncInvoiceEarning(ctx, invoice, sub);
  }
};

/**
 * Cancels `sub` now as a duplicate of `keptId` (marked first: metadata `reason: duplicate`,
 * `duplicate_of`; no proration credit: the charge is refunded whole instead), then refunds it. One
 * cancelled meanwhile (a parallel delivery) is done.
 */
const cancelDuplicate = async (ctx: SyncContext, sub: Stripe.Subscription, keptId: string) => {
  if (sub.metadata?.duplicate_of !== keptId)
    await ctx.stripe.subscriptions.update(
      sub.id,
      { metadata: duplicateMetadata(keptId) },
      { idempotencyKey: `duplicate-${sub.id}-of-${keptId}` },
    );
  await cancelAtOnce(ctx.stripe, sub.id);
  await refundDuplicateSubscription(ctx, sub, keptId);
};

/**
 * Cancels subscription `id` at once (`DELETE /v1/subscriptions/:id`, no proration: what it was
 * paid is refunded whole instead). One that has ended meanwhile (a parallel delivery) is done.
 */
const cancelAtOnce = async (client: Stripe, id: string): Promise<void> => {
  await client.subscriptions.cancel(id).catch(async (error: { statusCode?: number }) => {
    if (error.statusCode !== 400 && error.statusCode !== 404) throw error;
    if (BILLING.has((await client.subscriptions.retrieve(id)).status)) throw error;
  });
};

/**
 * The subscriptions paid up (`PAID_UP`) that `sub`'s customer holds for the same account and
 * creator, started within DUPLICATE_WINDOW_SECONDS of `sub` (two Checkout Sessions paid within
 * seconds, before either webhook: docs/payments.md, "Two payments for one thing"); `sub` itself
 * when it is paid up. Without a customer or metadata: `sub` alone.
 */
const paidUpSiblings = async (ctx: SyncContext, sub: Stripe.Subscription): Promise<Stripe.Subscription[]> => {
  const own = PAID_UP.has(sub.status) ? [sub] : [];
  const customer = idOf(sub.customer);
  const { account_id: accountId, creator_id: creatorId } = sub.metadata ?? {};
  if (!customer || !accountId || !creatorId) return own;
  const found: Stripe.Subscription[] = [];
  for await (const other of ctx.stripe.subscriptions.list({ customer, limit: 100 }))
    if (
      PAID_UP.has(other.status) &&
      withinDuplicateWindow(other, sub) &&
      other.metadata?.account_id === accountId &&
      other.metadata?.creator_id === creatorId
    )
      found.push(other);
  // A list that lags the subscription just read still counts it.
  return found.some((other) => other.id === sub.id) ? found : [...found, ...own];
};

/**
 * Re-reads subscription `id` and applies it. When its customer holds more than one paid-up
 * subscription for the same creator started within the duplicate window, the entitlement is
 * written from the kept one (`earliest`) before the others are cancelled and refunded as
 * duplicates, so it grants throughout; `id`'s own state is then applied only when it is not paid
 * up (ended, waiting for its first payment, or in a failed renewal), into its own object's item:
 * such a state is never shown over the kept one, which grants, and an ended subscription must
 * not stay `active` there (a resubscription's first subscription, whose end arrived after the
 * second started, granted again once the second ended, until the daily reconcile). A paid-up
 * duplicate's is not (its period ends seconds after the kept one's: it would be shown). A subscription
 * cancelled as a duplicate finishes its refunds on every re-read (a delivery that failed half-way
 * is redone by Stripe's retry). Why no reader can cancel them all: the earliest paid-up
 * subscription is kept by every reader that sees it, and a reader that does not see it keeps the
 * earliest of what it sees. A subscription of a deleted account with an invoice paid after the
 * deletion is refunded and cancelled instead, and nothing is written
 * (`refundSubscriptionPaidAfterDeletion`; its account is looked up: one consistent GetItem).
 */
export const syncSubscription = async (
  ctx: SyncContext,
  id: string,
): Promise<EntitlementRecord | undefined> => (await applySubscription(ctx, id)).record;

/** `syncSubscription`, answering the subscription it read as well. */
const applySubscription = async (
  ctx: SyncContext,
  id: string,
): Promise<{ record?: EntitlementRecord; sub: Stripe.Subscription }> => {
  const observedAt = ctx.now(); // before the reads (SyncContext.now)
  const sub = await ctx.stripe.subscriptions.retrieve(id);
  const deletedAt = await deletedAtOf(sub.metadata?.account_id);
  if (deletedAt && (await refundSubscriptionPaidAfterDeletion(ctx, sub, deletedAt))) return { sub };
  const siblings = await paidUpSiblings(ctx, sub);
  const kept = earliest(siblings);
  const keptRecord = kept && subscriptionEntitlement(kept, observedAt, ctx.graceDays, ctx.feePercent);
  if (keptRecord) await applyEntitlement(keptRecord);
  for (const other of siblings) if (other.id !== kept?.id) await cancelDuplicate(ctx, other, kept!.id);
  if (kept?.id === sub.id) return { record: keptRecord, sub };
  const record = subscriptionEntitlement(sub, observedAt, ctx.graceDays, ctx.feePercent);
  if (record && (!kept || !PAID_UP.has(sub.status))) await applyEntitlement(record);
  const keptOf = sub.metadata?.duplicate_of;
  if (keptOf && !BILLING.has(sub.status)) await refundDuplicateSubscription(ctx, sub, keptOf);
  return { record, sub };
};

/**
 * Purchase state of a payment and what refunds and disputes took back of its charge (refunded in
 * full, disputed (not won), or paid); undefined: not paid.
 */
const purchaseState = async (
  stripe: Stripe,
  intent: Stripe.PaymentIntent,
  charge: Stripe.Charge | undefined,
): Promise<{ status: EntitlementRecord['status']; reversal?: ChargeReversal } | undefined> => {
  if (intent.status === 'processing') return { status: 'pending' };
  if (intent.status !== 'succeeded' || !charge) return undefined;
  const reversal = await chargeReversal(stripe, charge);
  return { status: reversal.refunded ? 'refunded' : reversal.disputed ? 'disputed' : 'active', reversal };
};

/** Does payment `intent` (its latest charge expanded or not) grant now? */
const grantsNow = async (stripe: Stripe, intent: Stripe.PaymentIntent): Promise<boolean> => {
  const charge = typeof intent.latest_charge === 'string' ? undefined : (intent.latest_charge ?? undefined);
  return (await purchaseState(stripe, intent, charge))?.status === 'active';
};

interface PurchaseRead {
  /** None for a payment whose account was deleted (its purge cleared `account_id`: account-closure.ts). */
  record?: EntitlementRecord;
  /** When Stripe's state was read (orders the reversal's writes). */
  observedAt: Date;
  /** The earning of its charge once paid (what refunds and disputes took back with it). */
  earning?: EarningRead;
}

/**
 * A payment intent (its latest charge expanded or not) as the purchase it pays for, observed at
 * `observedAt` (taken before the intent was read); undefined: none.
 */
const readPurchase = async (
  ctx: SyncContext,
  intent: Stripe.PaymentIntent,
  observedAt: Date,
): Promise<PurchaseRead | undefined> => {
  const { account_id: accountId, content_id: contentId, creator_id: creatorId } = intent.metadata ?? {};
  if (!contentId || !creatorId) return undefined;
  const latest = intent.latest_charge;
  const charge =
    typeof latest === 'string' ? await ctx.stripe.charges.retrieve(latest) : (latest ?? undefined);
  const state = await purchaseState(ctx.stripe, intent, charge);
  if (!state) return undefined;
  const { status } = state;
  const fee = charge?.application_fee_amount ?? Math.round((intent.amount * ctx.feePercent) / 100);
  const record: EntitlementRecord | undefined = !accountId
    ? undefined
    : {
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
        observed_at: observedAt.getTime(),
        provider: { customer_id: idOf(intent.customer), payment_intent_id: intent.id, charge_id: charge?.id },
        price: { amount: intent.amount, currency: intent.currency, interval: null, platform_fee: fee },
      };
  if (charge?.status !== 'succeeded') return { record, observedAt };
  const { takenBack, reversed } = state.reversal ?? (await chargeReversal(ctx.stripe, charge));
  return {
    record,
    observedAt,
    earning: {
      earning: {
        creator_id: creatorId,
        source_id: charge.id,
        kind: 'purchase',
        currency: charge.currency,
        gross: charge.amount,
        platform_fee: fee,
        net: charge.amount - fee,
        paid_at: iso(charge.created),
      },
      takenBack,
      reversed,
    },
  };
};

/** Applies a purchase read: its entitlement, then the creator's earning of a paid charge once. */
const applyPurchase = async (read: PurchaseRead | undefined): Promise<EntitlementRecord | undefined> => {
  if (!read) return undefined;
  if (read.record) await applyEntitlement(read.record);
  await applyEarning(read.earning, read.observedAt);
  return read.record;
};

/**
 * The payments of `intent`'s customer for the same account and item, within
 * DUPLICATE_WINDOW_SECONDS of it, that grant (succeeded, not refunded, not disputed): more than one
 * is a duplicate purchase (docs/payments.md, "Two payments for one thing").
 */
const grantingPurchases = async (
  ctx: SyncContext,
  intent: Stripe.PaymentIntent,
): Promise<Stripe.PaymentIntent[]> => {
  const customer = idOf(intent.customer);
  const { account_id: accountId, content_id: contentId } = intent.metadata ?? {};
  if (!customer || !accountId || !contentId) return [];
  const found: Stripe.PaymentIntent[] = [];
  const created = {
    gte: intent.created - DUPLICATE_WINDOW_SECONDS,
    lte: intent.created + DUPLICATE_WINDOW_SECONDS,
  };
  for await (const other of ctx.stripe.paymentIntents.list({
    customer,
    created,
    limit: 100,
    expand: ['data.latest_charge'],
  })) {
    if (other.metadata?.account_id !== accountId || other.metadata?.content_id !== contentId) continue;
    if (await grantsNow(ctx.stripe, other)) found.push(other);
  }
  // A list that lags the payment just read still counts it.
  if (!found.some((other) => other.id === intent.id) && (await grantsNow(ctx.stripe, intent)))
    found.push(intent);
  return found;
};

/**
 * Re-reads payment intent `id` (with its latest charge) and applies the purchase it pays for;
 * records the creator's earning on the first sight of a paid charge. When the customer paid for
 * the item more than once, the entitlement is written from the kept payment (`earliest`) before
 * the others are refunded in full as duplicates (and their earnings reversed), so it grants
 * throughout; `id`'s own state is applied after the kept one's, so a refund or dispute of a
 * duplicate leaves the kept one's access (`applyEntitlement`).
 */
export const syncPurchase = async (ctx: SyncContext, id: string): Promise<EntitlementRecord | undefined> => {
  const retrieve = (intentId: string) =>
    ctx.stripe.paymentIntents.retrieve(intentId, { expand: ['latest_charge'] });
  const observedAt = ctx.now(); // before the reads (SyncContext.now)
  const intent = await retrieve(id);
  if (await paidAfterDeletion(intent)) {
    // Refunded, and nothing written into a partition its purge is deleting: only the creator's
    // earning, recorded and reversed whole (docs/payments.md, "A payment from a deleted account").
    await refundInFull(ctx.stripe, id, deletedAccountRefund(id));
    const refundedAt = ctx.now(); // before the re-read of what the refund changed
    const read = await readPurchase(ctx, await retrieve(id), refundedAt);
    await applyPurchase(read && { ...read, record: undefined });
    return undefined;
  }
  const granting = await grantingPurchases(ctx, intent);
  const kept = earliest(granting);
  if (!kept) return applyPurchase(await readPurchase(ctx, intent, observedAt));
  const keptRecord = await applyPurchase(await readPurchase(ctx, kept, observedAt));
  let record = kept.id === id ? keptRecord : undefined;
  for (const other of granting) {
    if (other.id === kept.id) continue;
    await refundDuplicate(ctx, other.id, kept.id);
    const refundedAt = ctx.now(); // before the re-read of what the refund changed
    const applied = await applyPurchase(await readPurchase(ctx, await retrieve(other.id), refundedAt));
    if (other.id === id) record = applied;
  }
  if (granting.some((other) => other.id === id)) return record;
  return applyPurchase(await readPurchase(ctx, intent, observedAt));
};

/**
 * The daily reconcile's check of one pay-per-view payment, listed at `observedAt` with its latest
 * charge: its entitlement and its creator's earning (and what refunds and disputes took back) as
 * the charge says now. True when either differed and was repaired, through the webhook's own
 * path (`syncPurchase`: the same re-read, duplicates included); nothing is written otherwise, so
 * a daily run does not move a reversal to the month it last observed it.
 */
export const reconcilePurchase = async (
  ctx: SyncContext,
  intent: Stripe.PaymentIntent,
  observedAt: Date,
): Promise<boolean> => {
  const read = await readPurchase(ctx, intent, observedAt);
  if (!read) return false;
  // A payment refunded because it came after its account's deletion has no entitlement (syncPurchase).
  const outOfStep =
    (read.record !== undefined &&
      (await entitlementOutOfStep(read.record)) &&
      !(read.record.status === 'refunded' && (await paidAfterDeletion(intent)))) ||
    (read.earning !== undefined && (await earningOutOfStep(read.earning.earning, read.earning.takenBack)));
  if (!outOfStep) return false;
  await syncPurchase(ctx, intent.id);
  return true;
};

/** The subscription an invoice bills, if any. */
export const invoiceSubscription = (invoice: Stripe.Invoice): string | undefined =>
  idOf(invoice.parent?.subscription_details?.subscription);

/**
 * Re-reads invoice `id`: syncs its subscription, then records the earning of a paid one from the
 * subscription that sync read (its creator and fee percent; no second read).
 */
export const syncInvoice = async (ctx: SyncContext, id: string): Promise<void> => {
  const invoice = await ctx.stripe.invoices.retrieve(id);
  const subscriptionId = invoiceSubscription(invoice);
  if (!subscriptionId) return;
  const { record, sub } = await applySubscription(ctx, subscriptionId);
  if (record && invoice.status === 'paid' && invoice.amount_paid > 0)
    await recordEarning(invoiceEarning(ctx, invoice, sub, record.creator_id));
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

/**
 * Re-reads charge `id` (a refund, a dispute opened or closed) and syncs what it paid for: a
 * subscription invoice's earning and its reversal (`syncInvoiceEarning`; the subscription's own
 * state is Stripe's, read by its own events), else the purchase its payment intent is for.
 */
export const syncCharge = async (ctx: SyncContext, id: string): Promise<void> => {
  const charge = await ctx.stripe.charges.retrieve(id);
  const intentId = idOf(charge.payment_intent);
  if (!intentId) return;
  const invoices = await ctx.stripe.invoicePayments.list({
    payment: { type: 'payment_intent', payment_intent: intentId },
    limit: 1,
  });
  const invoiceId = idOf(invoices.data[0]?.invoice);
  if (invoiceId) await syncInvoiceEarning(ctx, await ctx.stripe.invoices.retrieve(invoiceId));
  else await syncPurchase(ctx, intentId);
};
