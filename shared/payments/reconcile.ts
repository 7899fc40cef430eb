import type Stripe from 'stripe';
import { applyEntitlement, differsInState, getEntitlement } from '../entitlements/entitlement-repository.ts';
import { eventProcessed, markEventProcessed } from './billing-repository.ts';
import { type SyncContext, subscriptionEntitlement } from './stripe-sync.ts';
import { applyEvent } from './stripe-webhook.ts';

/**
 * The daily reconcile (docs/payments.md, "Reconcile"): what webhooks missed, repaired from Stripe.
 * 1. Every subscription Stripe has: its entitlement is what Stripe says now; an entitlement that
 *    differs is rewritten (a repair).
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
  for await (const sub of ctx.stripe.subscriptions.list({ status: 'all', limit: 100 })) {
    report.subscriptions++;
    const record = subscriptionEntitlement(sub, ctx.now(), ctx.graceDays, ctx.feePercent);
    if (!record) continue;
    const stored = await getEntitlement(record.account_id, {
      kind: 'subscription',
      creatorId: record.creator_id,
    });
    if (differsInState(stored, record) && (await applyEntitlement(record))) report.repaired++;
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
