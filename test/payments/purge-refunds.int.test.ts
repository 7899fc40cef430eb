import { randomUUID } from 'node:crypto';
import type Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { accountJobsRow } from '../../functions/accounts/workers.ts';
import { functionContext, runAsFunction } from '../../scripts/local/aws.ts';
import { purgeAccount } from '../../shared/accounts/run-job.ts';
import { entitlementsOf } from '../../shared/entitlements/entitlement-repository.ts';
import { getAccount, markDeleted } from '../../shared/identity/account-repository.ts';
import { recordCustomer } from '../../shared/payments/billing-repository.ts';
import { stripeClient } from '../../shared/payments/stripe-client.ts';
import { checkoutParams, newViewer, pay, stripeStandIn } from '../support/payments.ts';

/**
 * The purge's side of "A payment from a deleted account" (docs/payments.md): a payment made after
 * DELETE /me whose webhook never came (this file registers no webhook endpoint with the stand-in,
 * so none is delivered) is refunded in full by the account's purge, run as the account jobs
 * function (its own grants), once however often the purge runs.
 */
const stripe = () => stripeClient(stripeStandIn().secretKey, stripeStandIn().endpoint);

/** The account's purge as its function runs it (an SQS delivery may run it twice, even at once). */
const purge = (accountId: string) =>
  runAsFunction(functionContext(accountJobsRow), () => purgeAccount(accountId, new Date()));

/** A viewer with a Stripe customer (as its first checkout leaves it). */
const buyer = async (label: string) => {
  const { accountId } = await newViewer(label);
  const customer = await stripe().customers.create({ metadata: { account_id: accountId } });
  await recordCustomer(accountId, customer.id, new Date());
  return { accountId, customer: customer.id };
};

/** Payment intent `id`'s charge and its refunds (the reason each was made for). */
const chargeOf = async (id: string) => {
  const intent = await stripe().paymentIntents.retrieve(id, { expand: ['latest_charge'] });
  const { amount, amount_refunded } = intent.latest_charge as Stripe.Charge;
  const refunds = (await stripe().refunds.list({ payment_intent: id })).data;
  return { amount, amount_refunded, refunds: refunds.map((r) => r.metadata?.reason) };
};

/** Runs the purge twice at once, then once more (a retry after both): each must refund nothing again. */
const purgeThrice = async (accountId: string) => {
  await Promise.allSettled([purge(accountId), purge(accountId)]);
  expect(await purge(accountId)).toBe('purge: nothing left');
  expect(await getAccount(accountId, true)).toBeUndefined();
};

/** Waits until the next whole second of Stripe's clock after `at` (its `created` is whole seconds). */
const nextSecond = (at: Date) => new Promise((resolve) => setTimeout(resolve, 1020 - (at.getTime() % 1000)));

/** A paid pay-per-view purchase for `buyer`'s account (its customer's Checkout Session, completed): its payment intent. */
const purchased = async ({ accountId, customer }: { accountId: string; customer: string }) => {
  const metadata = {
    account_id: accountId,
    creator_id: `cr_ppv_${randomUUID().slice(0, 8)}`,
    content_id: `ep_${randomUUID().slice(0, 8)}`,
  };
  const session = await stripe().checkout.sessions.create(checkoutParams('payment', metadata, { customer }));
  await pay('complete', session.id);
  return (await stripe().checkout.sessions.retrieve(session.id)).payment_intent as string;
};

describe('the purge refunds what was paid after DELETE /me (shared/payments/account-closure.ts)', () => {
  it('a pay-per-view paid after DELETE /me, its webhook never delivered: refunded by the purge once, even when the purge runs twice', async () => {
    // money59 left the purge's refund untested (only the webhook's was).
    const account = await buyer('purge-ppv');
    const before = await purchased(account); // paid before the deletion: the buyer's
    const deletedAt = new Date();
    await markDeleted(account.accountId, deletedAt);
    await nextSecond(deletedAt);
    const after = await purchased(account); // a session opened before, paid after
    expect(await chargeOf(after)).toMatchObject({ amount_refunded: 0 }); // no webhook refunded it
    await purgeThrice(account.accountId);
    expect(await chargeOf(before)).toEqual({ amount: 299, amount_refunded: 0, refunds: [] });
    expect(await chargeOf(after)).toEqual({
      amount: 299,
      amount_refunded: 299,
      refunds: ['account_deleted'],
    });
    // Its account cleared from both payments, so a late webhook writes nothing into the purged partition.
    for (const id of [before, after])
      expect((await stripe().paymentIntents.retrieve(id)).metadata?.account_id || undefined).toBeUndefined();
    expect(await entitlementsOf(account.accountId)).toEqual([]);
  });

  it("a subscription's renewal paid after DELETE /me, its webhook never delivered: refunded once, the subscription cancelled", async () => {
    // money60: the purge cancelled the subscription and kept the renewal's money.
    const { accountId, customer } = await buyer('purge-renewer');
    const metadata = { account_id: accountId, creator_id: `cr_${randomUUID().slice(0, 8)}` };
    const session = await stripe().checkout.sessions.create(
      checkoutParams('subscription', metadata, { customer }),
    );
    await pay('complete', session.id);
    const sub = (await stripe().checkout.sessions.retrieve(session.id)).subscription as string;
    const deletedAt = new Date();
    await markDeleted(accountId, deletedAt);
    await nextSecond(deletedAt);
    await pay('renew', sub);
    const intents = async () => {
      const invoices = (await stripe().invoices.list({ subscription: sub, status: 'paid' })).data.reverse();
      return Promise.all(
        invoices.map(
          async (invoice) =>
            (await stripe().invoicePayments.list({ invoice: invoice.id })).data[0]!.payment
              .payment_intent as string,
        ),
      );
    };
    const [first, renewal] = await intents();
    expect(await chargeOf(renewal!)).toMatchObject({ amount_refunded: 0 }); // no webhook refunded it
    await purgeThrice(accountId);
    expect(await chargeOf(first!)).toEqual({ amount: 499, amount_refunded: 0, refunds: [] });
    expect(await chargeOf(renewal!)).toEqual({
      amount: 499,
      amount_refunded: 499,
      refunds: ['account_deleted'],
    });
    expect((await stripe().subscriptions.retrieve(sub)).status).toBe('canceled');
    expect(await entitlementsOf(accountId)).toEqual([]);
  });
});
