import {
  applyEntitlement,
  type EntitlementRecord,
  objectSortKey,
} from '../entitlements/entitlement-repository.ts';
import { type PayoutAccount, recordDetachment } from './payout-repository.ts';
import { type Stripe, stripe } from './stripe-client.ts';
import {
  BILLING,
  deletedAccountRefund,
  expireSession,
  paidSince,
  refundInFull,
  refundInvoicesPaidSince,
} from './stripe-sync.ts';

/**
 * What a deleted account's purge does at Stripe (docs/accounts.md "Deletion"): its paid
 * subscriptions cancelled now (no refund of the running period) and their entitlements closed, its
 * customer deleted; a creator's payout account detached. Each step is idempotent (a cancelled
 * subscription, a deleted customer: Stripe's 404 counts as done), so a retried purge repeats them.
 */

const gone = (error: { statusCode?: number }): undefined => {
  if (error.statusCode !== 404) throw error;
  return undefined;
};

/**
 * Cancels `subscriptionId` at once unless it has ended (a retried purge finds it cancelled). Its
 * `account_id` metadata is cleared first, so a webhook that re-reads it afterwards (the
 * cancellation's own `customer.subscription.deleted`, arriving after the purge) finds no account
 * to write an entitlement for (shared/payments/stripe-sync.ts).
 */
const cancelNow = async (client: Stripe, subscriptionId: string): Promise<void> => {
  const sub = await client.subscriptions.retrieve(subscriptionId).catch(gone);
  if (!sub || !BILLING.has(sub.status)) return;
  await client.subscriptions.update(subscriptionId, { metadata: { account_id: '' } });
  await client.subscriptions.cancel(subscriptionId).catch(gone);
};

/**
 * The account's own payments: its customers' open Checkout Sessions expired (a session lives 60-90
 * minutes, so one opened before or even after `DELETE /me` could be paid after the purge and start
 * billing a deleted account: the outside probe of 2026-11-30 paid two, and their webhooks wrote
 * entitlements back into the purged partition); each subscription still billing cancelled at
 * Stripe, those its entitlements name and any other of its customers' (a second subscription),
 * and each closed (`expired` now: the subscription's end and churn reach the events and the
 * analysts as any ending does, before the purge deletes the item); then the customers deleted
 * (Stripe keeps its own records of the charges). A payment made after `deletedAt` (the account's
 * `DELETE /me`: a session opened before it, paid before its expiry here), and a subscription's
 * invoice paid after it (a renewal, a first invoice), is refunded in full first, as its webhook
 * does (stripe-sync.ts), should that webhook come after this clears the account from its
 * metadata, or never. `entitlements` are the entitlement items and the
 * provider objects' items (docs/payments.md): every Stripe subscription the account holds for a
 * creator is closed, the one shown and any other, each once. An app store's subscription is not
 * ours to cancel (the store bills until its owner cancels there), but the access it gave ends with
 * the account: its entitlement is closed the same way, so the subscription's end reaches the
 * analysts' churn and MRR (before stop 54 it was deleted with the partition and no end was ever
 * recorded: an account deleted with an App Store subscription counted as a subscriber for ever).
 * Returns how many entitlements it closed or named a Stripe subscription.
 */
export const closePaymentsOf = async (
  entitlements: readonly EntitlementRecord[],
  customerIds: readonly string[],
  now: Date,
  deletedAt?: string,
): Promise<number> => {
  // One per provider object (an entitlement item and its object's item name the same one).
  const objects = [
    ...new Map(
      entitlements.filter((e) => e.kind === 'subscription').map((e) => [objectSortKey(e), e]),
    ).values(),
  ];
  const subscriptions = objects.filter((e) => e.source === 'stripe' && e.provider?.subscription_id);
  const stores = objects.filter((e) => e.source !== 'stripe' && e.status !== 'expired');
  for (const entitlement of stores) await closeEntitlement(entitlement, now);
  if (subscriptions.length === 0 && customerIds.length === 0) return stores.length;
  const client = await stripe();
  const billing = new Set(subscriptions.map((e) => String(e.provider.subscription_id)));
  for (const customer of customerIds) {
    for await (const session of client.checkout.sessions.list({ customer, status: 'open', limit: 100 }))
      await expireSession(client, session.id);
    // A purchase's late webhook (a refund, a dispute) re-reads its payment intent: without the
    // account in its metadata it writes no entitlement into the purged partition (the creator's
    // earning still moves: stripe-sync.ts).
    for await (const intent of client.paymentIntents.list({
      customer,
      limit: 100,
      expand: ['data.latest_charge'],
    }))
      if (intent.metadata?.account_id) {
        if (paidSince(intent, deletedAt))
          await refundInFull(client, intent.id, deletedAccountRefund(intent.id));
        await client.paymentIntents.update(intent.id, { metadata: { account_id: '' } });
      }
    // A subscription's invoice paid after the deletion (a renewal, a first invoice), likewise.
    if (deletedAt)
      await refundInvoicesPaidSince(
        client,
        client.invoices.list({ customer, status: 'paid', limit: 100 }),
        deletedAt,
      );
    for await (const sub of client.subscriptions.list({ customer, status: 'all', limit: 100 }))
      if (BILLING.has(sub.status)) billing.add(sub.id);
  }
  for (const id of billing) await cancelNow(client, id);
  for (const entitlement of subscriptions)
    if (entitlement.status !== 'expired') await closeEntitlement(entitlement, now);
  for (const id of customerIds) await client.customers.del(id).catch(gone);
  return subscriptions.length + stores.length;
};

/** `entitlement` ended now (its object's item, and the entitlement item computed from them). */
const closeEntitlement = (entitlement: EntitlementRecord, now: Date) =>
  applyEntitlement({
    ...entitlement,
    status: 'expired',
    valid_until: now.toISOString(),
    grace_until: null,
    cancel_at_period_end: false,
    observed_at: now.getTime(),
  });

/**
 * Detaches a deleted creator's Stripe Connect account from the platform: every subscription
 * still billing for the creator is cancelled (their subscribers' entitlements expire through the
 * webhook as any cancellation's do), so nothing is charged to it again; the account loses its
 * `creator_id` metadata (a later `account.updated` names no creator) and records when it was
 * detached; the detachment is recorded here by the Stripe account id (no account id:
 * `recordDetachment`). The account itself stays at Stripe so the creator can still be paid what
 * it holds (Stripe refuses to delete an account with a balance). New checkouts for the creator
 * are refused already: the payout item is gone with the creator's partition.
 */
export const detachPayoutAccount = async (payouts: PayoutAccount, now: Date): Promise<number> => {
  const client = await stripe();
  const found = await client.subscriptions.search({
    query: `metadata['creator_id']:'${payouts.creator_id}'`,
    limit: 100,
  });
  const billing = found.data.filter((sub) => BILLING.has(sub.status));
  for (const sub of billing) await client.subscriptions.cancel(sub.id).catch(gone);
  await client.accounts
    .update(payouts.stripe_account_id, {
      metadata: { creator_id: '', detached_at: now.toISOString() },
    })
    .catch(gone);
  await recordDetachment(payouts.stripe_account_id, now);
  return billing.length;
};
