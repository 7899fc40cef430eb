import type Stripe from 'stripe';
import {
  applyEntitlement,
  type EntitlementRecord,
  entitlementOutOfStep,
} from '../entitlements/entitlement-repository.ts';
import { mapInFlight } from '../in-flight.ts';
import { eventProcessed, markEventProcessed } from './billing-repository.ts';
import {
  type ChargeFacts,
  type InvoiceSubscription,
  invoiceSubscription,
  PAID_UP,
  reconcileInvoice,
  reconcilePurchase,
  type SyncContext,
  subscriptionEntitlement,
  syncSubscription,
  withinDuplicateWindow,
} from './stripe-sync.ts';
import { applyEvent } from './stripe-webhook.ts';

/**
 * The daily reconcile (docs/payments.md, "Reconcile"): what webhooks missed, repaired from Stripe.
 * 1. Every subscription Stripe has: its entitlement is what Stripe says now; an entitlement that
 *    differs is rewritten (a repair). Two still billing for one customer and creator are a
 *    duplicate payment: one kept, the others cancelled and refunded (a repair).
 * 2. The events of the last `eventDays` days never processed here (a delivery lost, a bug fixed
 *    since): applied and marked, as the webhook would have (each is a repair).
 * 3. Every pay-per-view payment of the last `paymentDays` days, with its latest charge: its
 *    entitlement and its creator's earning as the charge says now (refunds, disputes), compared
 *    and repaired through the webhook's path when they differ (`reconcilePurchase`).
 * 4. Every paid subscription invoice of the same window: its creator's earning as its charges say
 *    now, compared and repaired the same way (`reconcileInvoice`), from what steps 1 and 3 listed
 *    (the subscriptions, the invoices' payment intents with their charges).
 * Returns the counts; the worker turns `repaired` into a metric with an alarm.
 */
/**
 * How far back the daily run compares pay-per-view payments and subscription invoices: 120 days,
 * the card networks' usual window for a dispute (a refund can come later still; it arrives as an
 * event, step 2 covers a lost one for 3 days).
 */
export const PAYMENT_RECONCILE_DAYS = 120;

/**
 * Payments (steps 3 and 4) checked at once. Each check makes its Stripe calls one after another
 * (none when in step; a repair re-reads, and may refund), so at most this many Stripe requests
 * are in flight: at Stripe's live-mode limit of 100 requests a second (reads and writes each,
 * docs/payments.md "Stripe's own limits"), 8 stays under it while Stripe answers in 80 ms or
 * more, leaving the webhooks and routes room at its usual few hundred milliseconds. (A page's 100
 * at once, as until 2026-12-01, could send 100 together.)
 */
export const PAYMENTS_IN_FLIGHT = 8;

export interface ReconcileReport {
  subscriptions: number;
  events: number;
  purchases: number;
  invoices: number;
  repaired: number;
}

/**
 * A Stripe list (`list` asks for the page after an id), page by page, each with the instant taken
 * before it was asked for (SyncContext.now): a page read before a change must not overwrite it,
 * however long the run.
 */
async function* stampedPages<T extends { id: string }>(
  ctx: SyncContext,
  list: (startingAfter?: string) => Promise<Stripe.ApiList<T>>,
): AsyncGenerator<{ observedAt: Date; items: T[] }> {
  for (let after: string | undefined, more = true; more; ) {
    const observedAt = ctx.now();
    const page = await list(after);
    yield { observedAt, items: page.data };
    more = page.has_more && page.data.length > 0;
    after = page.data.at(-1)?.id;
  }
}

/** `starting_after` when there is one. */
const after = (id?: string) => (id ? { starting_after: id } : {});

export const reconcile = async (
  ctx: SyncContext,
  options: {
    /** Step 2: how far back events are looked at. */
    eventDays: number;
    /** Steps 3 and 4: how far back payments are compared (pay-per-view payments and subscription invoices). */
    paymentDays: number;
  },
): Promise<ReconcileReport> => {
  const report: ReconcileReport = { subscriptions: 0, events: 0, purchases: 0, invoices: 0, repaired: 0 };
  // What step 4 needs of the listings of steps 1 and 3 (a few fields each, not the objects).
  const subscriptionsById = new Map<string, InvoiceSubscription>();
  const charges = new Map<string, ChargeFacts>();
  // A customer's paid-up subscriptions, by account and creator: two for one creator started
  // within the duplicate window are one purchase paid twice, resolved as the webhook does
  // (`syncSubscription`: one kept, the others cancelled and refunded) after the listing, never
  // applied one by one.
  const paidUp = new Map<string, Array<{ sub: Stripe.Subscription; record: EntitlementRecord }>>();
  const repair = async (record: EntitlementRecord) => {
    if ((await entitlementOutOfStep(record)) && (await applyEntitlement(record))) report.repaired++;
  };
  const subscriptions = stampedPages(ctx, (id) =>
    ctx.stripe.subscriptions.list({ status: 'all', limit: 100, ...after(id) }),
  );
  for await (const { observedAt, items } of subscriptions)
    for (const sub of items) {
      report.subscriptions++;
      const { id, metadata, application_fee_percent } = sub;
      subscriptionsById.set(id, { id, metadata, application_fee_percent });
      const record = subscriptionEntitlement(sub, observedAt, ctx.graceDays, ctx.feePercent);
      if (!record) continue;
      if (!PAID_UP.has(sub.status)) await repair(record);
      else {
        const key = `${record.provider.customer_id}|${record.account_id}|${record.creator_id}`;
        paidUp.set(key, [...(paidUp.get(key) ?? []), { sub, record }]);
      }
    }
  for (const subs of paidUp.values()) {
    const duplicated = subs.some((a, i) => subs.some((b, j) => i < j && withinDuplicateWindow(a.sub, b.sub)));
    if (!duplicated) for (const { record } of subs) await repair(record);
    else {
      for (const { sub } of subs) await syncSubscription(ctx, sub.id);
      report.repaired++;
    }
  }
  const since = Math.floor(ctx.now().getTime() / 1000) - options.eventDays * 86_400;
  for await (const event of ctx.stripe.events.list({ created: { gte: since }, limit: 100 })) {
    report.events++;
    if (await eventProcessed(event.id)) continue;
    if (await applyEvent(ctx, event as Stripe.Event)) report.repaired++;
    await markEventProcessed(event, ctx.now());
  }
  const paymentsSince = Math.floor(ctx.now().getTime() / 1000) - options.paymentDays * 86_400;
  const payments = stampedPages(ctx, (id) =>
    ctx.stripe.paymentIntents.list({
      created: { gte: paymentsSince },
      limit: 100,
      expand: ['data.latest_charge'],
      ...after(id),
    }),
  );
  // A page's payments side by side (PAYMENTS_IN_FLIGHT at once): one after another, 120 days of
  // 1,000 purchases a day (two read round trips each) would not fit the function's 10 minutes.
  for await (const { observedAt, items } of payments) {
    // A subscription's invoices are paid through payment intents too: only purchases name content.
    const purchases = items.filter((intent) => intent.metadata?.content_id);
    for (const { id, metadata, latest_charge: charge } of items)
      if (!metadata?.content_id && charge && typeof charge !== 'string') {
        const { amount, amount_refunded, refunded, disputed } = charge;
        charges.set(id, { id: charge.id, amount, amount_refunded, refunded, disputed });
      }
    report.purchases += purchases.length;
    const repaired = await mapInFlight(purchases, PAYMENTS_IN_FLIGHT, (intent) =>
      reconcilePurchase(ctx, intent, observedAt),
    );
    report.repaired += repaired.filter(Boolean).length;
  }
  const invoices = stampedPages(ctx, (id) =>
    ctx.stripe.invoices.list({
      status: 'paid',
      created: { gte: paymentsSince },
      limit: 100,
      expand: ['data.payments'],
      ...after(id),
    }),
  );
  const held = { subscriptions: subscriptionsById, charges };
  for await (const { items } of invoices) {
    const paid = items.filter((invoice) => invoice.amount_paid > 0 && invoiceSubscription(invoice));
    report.invoices += paid.length;
    const repaired = await mapInFlight(paid, PAYMENTS_IN_FLIGHT, (invoice) =>
      reconcileInvoice(ctx, invoice, held),
    );
    report.repaired += repaired.filter(Boolean).length;
  }
  return report;
};
