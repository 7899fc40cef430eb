import type Stripe from 'stripe';
import {
  applyEntitlement,
  type EntitlementRecord,
  entitlementOutOfStep,
} from '../entitlements/entitlement-repository.ts';
import { eventProcessed, markEventProcessed } from './billing-repository.ts';
import {
  PAID_UP,
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
 * Returns the counts; the worker turns `repaired` into a metric with an alarm.
 */
export interface ReconcileReport {
  subscriptions: number;
  events: number;
  repaired: number;
}

export const reconcile = async (
  ctx: SyncContext,
  options: { eventDays: number },
): Promise<ReconcileReport> => {
  const report: ReconcileReport = { subscriptions: 0, events: 0, repaired: 0 };
  // A customer's paid-up subscriptions, by account and creator: two for one creator started
  // within the duplicate window are one purchase paid twice, resolved as the webhook does
  // (`syncSubscription`: one kept, the others cancelled and refunded) after the listing, never
  // applied one by one.
  const paidUp = new Map<string, Array<{ sub: Stripe.Subscription; record: EntitlementRecord }>>();
  const repair = async (record: EntitlementRecord) => {
    if ((await entitlementOutOfStep(record)) && (await applyEntitlement(record))) report.repaired++;
  };
  // Page by page, each page's records stamped with the instant before it was asked for
  // (SyncContext.now): a page read before a change must not overwrite it, however long the run.
  for (let after: string | undefined, more = true; more; ) {
    const observedAt = ctx.now();
    const page = await ctx.stripe.subscriptions.list({
      status: 'all',
      limit: 100,
      ...(after ? { starting_after: after } : {}),
    });
    for (const sub of page.data) {
      report.subscriptions++;
      const record = subscriptionEntitlement(sub, observedAt, ctx.graceDays, ctx.feePercent);
      if (!record) continue;
      if (!PAID_UP.has(sub.status)) await repair(record);
      else {
        const key = `${record.provider.customer_id}|${record.account_id}|${record.creator_id}`;
        paidUp.set(key, [...(paidUp.get(key) ?? []), { sub, record }]);
      }
    }
    more = page.has_more && page.data.length > 0;
    after = page.data.at(-1)?.id;
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
  return report;
};
