import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { periodEndAfter } from '../../scripts/local/stripe/billing.ts';
import type { StripeStandIn } from '../../scripts/local/stripe/server.ts';
import { clientFor, pay, startStandIn } from './support.ts';

/**
 * The card network's side (`npm run pay`): each action's state change and the events it makes,
 * in Stripe's order; the hosted Checkout page; and the CLI's exit codes.
 */
let standIn: StripeStandIn;
let stripe: Stripe;
let destination: string;
beforeAll(async () => {
  standIn = await startStandIn();
  stripe = clientFor(standIn);
  destination = (await stripe.accounts.create({ type: 'express', metadata: { creator_id: 'cr_9' } })).id;
  await pay(standIn, 'onboard', 'cr_9');
});
afterAll(() => standIn.stop());

const types = (body: { events: Array<{ type: string }> }) => body.events.map((e) => e.type);

const subscribed = async () => {
  const price = await stripe.prices.create({
    currency: 'usd',
    unit_amount: 1000,
    recurring: { interval: 'month' },
    product_data: { name: 'Monthly' },
  });
  const session = await stripe.checkout.sessions.create({
    mode: 'subscription',
    client_reference_id: 'u_1',
    line_items: [{ price: price.id, quantity: 1 }],
    subscription_data: { application_fee_percent: 15, transfer_data: { destination } },
  });
  const { status, body } = await pay(standIn, 'complete', session.id);
  expect(status).toBe(200);
  const { subscription } = await stripe.checkout.sessions.retrieve(session.id);
  return { session, body, subscription: subscription as string };
};

const purchased = async () => {
  const session = await stripe.checkout.sessions.create({
    mode: 'payment',
    client_reference_id: 'u_2',
    line_items: [
      { price_data: { currency: 'usd', unit_amount: 400, product_data: { name: 'Episode' } }, quantity: 1 },
    ],
    payment_intent_data: {
      application_fee_amount: 60,
      transfer_data: { destination },
      metadata: { content_id: 'ep_1' },
    },
  });
  return session;
};

describe('checkout', () => {
  it('complete (subscription): a customer, the first invoice paid, the subscription active, the session completed', async () => {
    const { body, subscription } = await subscribed();
    expect(types(body)).toEqual([
      'customer.created',
      'invoice.created',
      'invoice.finalized',
      'charge.succeeded',
      'payment_intent.succeeded',
      'invoice.paid',
      'invoice.payment_succeeded',
      'customer.subscription.created',
      'checkout.session.completed',
    ]);
    expect(body.object).toMatchObject({ object: 'checkout.session', status: 'complete' });
    expect((await stripe.subscriptions.retrieve(subscription)).status).toBe('active');
  });

  it('complete (payment): the payment intent succeeded with its fee and destination; no customer unless asked', async () => {
    const session = await purchased();
    const { body } = await pay(standIn, 'complete', session.id);
    expect(types(body)).toEqual([
      'payment_intent.created',
      'charge.succeeded',
      'payment_intent.succeeded',
      'checkout.session.completed',
    ]);
    const paid = await stripe.checkout.sessions.retrieve(session.id, { expand: ['payment_intent'] });
    expect(paid).toMatchObject({ status: 'complete', payment_status: 'paid', customer: null });
    expect(paid.payment_intent).toMatchObject({
      status: 'succeeded',
      amount: 400,
      application_fee_amount: 60,
      transfer_data: { destination },
      metadata: { content_id: 'ep_1' },
    });
  });

  it('decline: the payment fails, the session stays open and can still be paid', async () => {
    const session = await purchased();
    const declined = await pay(standIn, 'decline', session.id);
    expect(types(declined.body)).toEqual([
      'payment_intent.created',
      'charge.failed',
      'payment_intent.payment_failed',
    ]);
    const open = await stripe.checkout.sessions.retrieve(session.id, { expand: ['payment_intent'] });
    expect(open).toMatchObject({ status: 'open', payment_status: 'unpaid' });
    expect((open.payment_intent as Stripe.PaymentIntent).last_payment_error).toMatchObject({
      code: 'card_declined',
    });
    const paid = await pay(standIn, 'complete', session.id);
    expect(types(paid.body)).toEqual([
      'charge.succeeded',
      'payment_intent.succeeded',
      'checkout.session.completed',
    ]);
    const again = await pay(standIn, 'complete', session.id);
    expect(again.status).toBe(409);
    expect(again.body.error.message).toContain('is complete');
  });

  it('the hosted page: Pay redirects to success_url with the session id; the declining test card shows the decline', async () => {
    const price = await stripe.prices.create({
      currency: 'eur',
      unit_amount: 1250,
      product_data: { name: 'Concert' },
    });
    const session = await stripe.checkout.sessions.create({
      mode: 'payment',
      line_items: [{ price: price.id, quantity: 1 }],
      success_url: 'http://127.0.0.1:9/paid?checkout={CHECKOUT_SESSION_ID}',
    });
    const form = (card: string) => ({
      method: 'POST',
      redirect: 'manual' as const,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: 'fan@example.com', card }),
    });
    const declined = await fetch(session.url!, form('4000 0000 0000 0002'));
    expect(declined.status).toBe(402);
    expect(await declined.text()).toContain('Your card was declined');
    const paid = await fetch(session.url!, form('4242 4242 4242 4242'));
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(`http://127.0.0.1:9/paid?checkout=${session.id}`);
    expect(await stripe.checkout.sessions.retrieve(session.id)).toMatchObject({
      status: 'complete',
      customer_details: { email: 'fan@example.com' },
    });
  });
});

describe('renewals', () => {
  it('end each period where Stripe does: counted from the anchor, on the last day of a short month', () => {
    const at = (iso: string) => Date.parse(iso) / 1000;
    const iso = (seconds: number) => new Date(seconds * 1000).toISOString();
    const periods = (anchor: string, interval: string, n: number) => {
      const ends: number[] = [];
      let start = at(anchor);
      while (ends.length < n) {
        start = periodEndAfter(at(anchor), start, interval);
        ends.push(start);
      }
      return ends.map(iso);
    };
    expect(periods('2027-01-31T10:00:00.000Z', 'month', 4)).toEqual([
      '2027-02-28T10:00:00.000Z',
      '2027-03-31T10:00:00.000Z',
      '2027-04-30T10:00:00.000Z',
      '2027-05-31T10:00:00.000Z',
    ]);
    expect(periods('2027-12-31T23:59:59.000Z', 'month', 3)).toEqual([
      '2028-01-31T23:59:59.000Z',
      '2028-02-29T23:59:59.000Z',
      '2028-03-31T23:59:59.000Z',
    ]);
    expect(periods('2028-02-29T12:00:00.000Z', 'year', 5)).toEqual([
      '2029-02-28T12:00:00.000Z',
      '2030-02-28T12:00:00.000Z',
      '2031-02-28T12:00:00.000Z',
      '2032-02-29T12:00:00.000Z',
      '2033-02-28T12:00:00.000Z',
    ]);
  });

  it('renew: the period moves on by one interval, a cycle invoice is paid', async () => {
    const { subscription } = await subscribed();
    const before = (await stripe.subscriptions.retrieve(subscription)).items.data[0]!;
    const { body } = await pay(standIn, 'renew', subscription);
    expect(types(body)).toEqual([
      'customer.subscription.updated',
      'invoice.created',
      'invoice.finalized',
      'charge.succeeded',
      'payment_intent.succeeded',
      'invoice.paid',
      'invoice.payment_succeeded',
    ]);
    const after = await stripe.subscriptions.retrieve(subscription, { expand: ['latest_invoice'] });
    expect(after.items.data[0]!.current_period_start).toBe(before.current_period_end);
    expect(after.items.data[0]!.current_period_end).toBeGreaterThan(before.current_period_end + 27 * 86_400);
    expect(after.latest_invoice).toMatchObject({
      billing_reason: 'subscription_cycle',
      status: 'paid',
      amount_paid: 1000,
      period_start: before.current_period_end,
    });
    const updated = await stripe.events.retrieve(body.events[0].id);
    expect(updated.data.previous_attributes).toHaveProperty('items');
  });

  it('fail-renewal, fail again, recover: past_due with an open invoice, then active and paid', async () => {
    const { session, subscription } = await subscribed();
    const failed = await pay(standIn, 'fail-renewal', session.id);
    expect(types(failed.body)).toEqual([
      'customer.subscription.updated',
      'invoice.created',
      'invoice.finalized',
      'charge.failed',
      'payment_intent.payment_failed',
      'invoice.payment_failed',
      'customer.subscription.updated',
    ]);
    const pastDue = await stripe.subscriptions.retrieve(subscription, { expand: ['latest_invoice'] });
    expect(pastDue.status).toBe('past_due');
    expect(pastDue.latest_invoice).toMatchObject({
      status: 'open',
      attempt_count: 1,
      amount_remaining: 1000,
    });
    expect((pastDue.latest_invoice as Stripe.Invoice).next_payment_attempt).toBeGreaterThan(
      Date.now() / 1000,
    );

    const retry = await pay(standIn, 'fail-renewal', session.id);
    expect(types(retry.body)).toEqual([
      'charge.failed',
      'payment_intent.payment_failed',
      'invoice.payment_failed',
    ]);

    const recovered = await pay(standIn, 'recover', session.id);
    expect(types(recovered.body)).toEqual([
      'charge.succeeded',
      'payment_intent.succeeded',
      'invoice.paid',
      'invoice.payment_succeeded',
      'customer.subscription.updated',
    ]);
    const active = await stripe.subscriptions.retrieve(subscription, { expand: ['latest_invoice'] });
    expect(active.status).toBe('active');
    expect(active.latest_invoice).toMatchObject({ status: 'paid', attempt_count: 3 });
    expect((await pay(standIn, 'recover', session.id)).status).toBe(409);
  });

  it('the fourth failed attempt cancels the subscription (payment_failed)', async () => {
    const { subscription } = await subscribed();
    for (let i = 0; i < 3; i += 1) await pay(standIn, 'fail-renewal', subscription);
    const last = await pay(standIn, 'fail-renewal', subscription);
    expect(types(last.body)).toEqual([
      'charge.failed',
      'payment_intent.payment_failed',
      'invoice.payment_failed',
      'customer.subscription.deleted',
    ]);
    expect(await stripe.subscriptions.retrieve(subscription)).toMatchObject({
      status: 'canceled',
      cancellation_details: { reason: 'payment_failed' },
    });
  });

  it('renew of a subscription set to cancel at period end ends it at that end', async () => {
    const { subscription } = await subscribed();
    const set = await stripe.subscriptions.update(subscription, { cancel_at_period_end: true });
    const { body } = await pay(standIn, 'renew', subscription);
    expect(types(body)).toEqual(['customer.subscription.deleted']);
    expect(await stripe.subscriptions.retrieve(subscription)).toMatchObject({
      status: 'canceled',
      ended_at: set.items.data[0]!.current_period_end,
    });
  });
});

describe('refunds and disputes', () => {
  it('refund of a purchase: charge.refunded with the charge fully refunded, refund.created', async () => {
    const session = await purchased();
    await pay(standIn, 'complete', session.id);
    const { body } = await pay(standIn, 'refund', session.id);
    expect(types(body)).toEqual(['charge.refunded', 'refund.created']);
    const refunded = await stripe.events.retrieve(body.events[0].id);
    expect(refunded.data.object).toMatchObject({ object: 'charge', amount_refunded: 400, refunded: true });
    expect((await pay(standIn, 'refund', session.id)).status).toBe(400);
  });

  it('refund of a subscription refunds its latest paid invoice; a partial amount leaves refunded false', async () => {
    const { session } = await subscribed();
    const { body } = await pay(standIn, 'refund', session.id, 250);
    const charge = (await stripe.events.retrieve(body.events[0].id)).data.object as Stripe.Charge;
    expect(charge).toMatchObject({ amount: 1000, amount_refunded: 250, refunded: false });
  });

  it('dispute, then win-dispute: needs_response with the charge disputed, then won and the funds reinstated', async () => {
    const session = await purchased();
    await pay(standIn, 'complete', session.id);
    const opened = await pay(standIn, 'dispute', session.id);
    expect(types(opened.body)).toEqual(['charge.dispute.created', 'charge.dispute.funds_withdrawn']);
    const dispute = await stripe.disputes.retrieve(opened.body.object.id);
    expect(dispute).toMatchObject({ status: 'needs_response', amount: 400 });
    expect(dispute.id).toMatch(/^dp_/);
    expect((await stripe.charges.retrieve(dispute.charge as string)).disputed).toBe(true);
    const won = await pay(standIn, 'win-dispute', session.id);
    expect(types(won.body)).toEqual(['charge.dispute.closed', 'charge.dispute.funds_reinstated']);
    expect((await stripe.disputes.retrieve(dispute.id)).status).toBe('won');
    expect((await pay(standIn, 'win-dispute', session.id)).status).toBe(409);
  });
});

describe('unknown ids and the CLI', () => {
  it('answers an unknown id with 404 and a wrong action with 404', async () => {
    const unknown = await pay(standIn, 'complete', 'cs_test_nope');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe("No such checkout session: 'cs_test_nope'");
    expect((await pay(standIn, 'onboard', 'cr_nobody')).status).toBe(404);
    expect((await pay(standIn, 'teleport', 'cs_test_nope')).status).toBe(404);
  });

  it('npm run pay prints the events and exits 0; an unknown id exits 1 with the message', async () => {
    const run = promisify(execFile);
    const root = resolve(import.meta.dirname, '../..');
    const env = { ...process.env, STRIPE_PORT: new URL(standIn.endpoint).port };
    const tsx = resolve(root, 'node_modules/.bin/tsx');
    const session = await purchased();
    const ok = await run(tsx, ['scripts/pay.ts', 'complete', session.id], { cwd: root, env });
    expect(ok.stdout).toContain(`complete: checkout.session ${session.id} is complete`);
    expect(ok.stdout).toContain('checkout.session.completed');
    const failed = await run(tsx, ['scripts/pay.ts', 'complete', 'cs_test_unknown'], { cwd: root, env }).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toContain("No such checkout session: 'cs_test_unknown'");
  });
});
