import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StripeStandIn } from '../../scripts/local/stripe/server.ts';
import { clientFor, pay, startStandIn } from './support.ts';

/**
 * The Stripe stand-in's API, driven by the official `stripe` client: if the client can send our
 * requests and parse our answers and errors into its typed classes, the back end's Stripe code can.
 */
let standIn: StripeStandIn;
let stripe: Stripe;
beforeAll(async () => {
  standIn = await startStandIn();
  stripe = clientFor(standIn);
});
afterAll(() => standIn.stop());

const rejection = async (promise: Promise<unknown>): Promise<any> =>
  promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: unknown) => error,
  );

/** A connected account that finished onboarding (destination charges need its transfers capability). */
const onboardedAccount = async (creatorId: string) => {
  const account = await stripe.accounts.create({ type: 'express', metadata: { creator_id: creatorId } });
  expect((await pay(standIn, 'onboard', creatorId)).status).toBe(200);
  return account;
};

describe('customers', () => {
  it('creates, retrieves, updates, lists by email and searches by email and metadata', async () => {
    const created = await stripe.customers.create({
      email: 'ana@example.com',
      metadata: { account_id: 'u_1' },
    });
    expect(created).toMatchObject({ object: 'customer', email: 'ana@example.com', livemode: false });
    expect(created.id).toMatch(/^cus_[A-Za-z0-9]{14}$/);
    expect(created.created).toBeGreaterThan(1_700_000_000);
    expect(created.created).toBeLessThan(Date.now() / 1000 + 1);

    const updated = await stripe.customers.update(created.id, { name: 'Ana', metadata: { tier: 'gold' } });
    expect(updated.name).toBe('Ana');
    expect(updated.metadata).toEqual({ account_id: 'u_1', tier: 'gold' });
    expect((await stripe.customers.retrieve(created.id)).id).toBe(created.id);

    const listed = await stripe.customers.list({ email: 'ana@example.com' });
    expect(listed).toMatchObject({ object: 'list', has_more: false, url: '/v1/customers' });
    expect(listed.data.map((c) => c.id)).toEqual([created.id]);

    const found = await stripe.customers.search({ query: "metadata['account_id']:'u_1'" });
    expect(found.data.map((c) => c.id)).toEqual([created.id]);
    expect((await stripe.customers.search({ query: "email:'nobody@example.com'" })).data).toEqual([]);
  });

  it('answers a missing object with Stripe 404 resource_missing, a bad key with 401', async () => {
    const missing = await rejection(stripe.customers.retrieve('cus_nope'));
    expect(missing).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(missing).toMatchObject({ statusCode: 404, code: 'resource_missing', param: 'id' });
    expect(missing.message).toBe("No such customer: 'cus_nope'");

    const badKey = await rejection(clientFor(standIn, 'sk_test_wrong').customers.list());
    expect(badKey).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    expect(badKey.statusCode).toBe(401);
  });

  it('pages lists newest first with limit and starting_after, and the client auto-paginates', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1)
      ids.push((await stripe.customers.create({ email: `page${i}@example.com` })).id);
    const first = await stripe.customers.list({ limit: 2 });
    expect(first.data.map((c) => c.id)).toEqual([ids[4], ids[3]]);
    expect(first.has_more).toBe(true);
    const next = await stripe.customers.list({ limit: 2, starting_after: ids[3] });
    expect(next.data.map((c) => c.id)).toEqual([ids[2], ids[1]]);
    const all = await stripe.customers.list({ limit: 2 }).autoPagingToArray({ limit: 100 });
    expect(all.map((c) => c.id)).toEqual(expect.arrayContaining(ids));
  });
});

describe('products and prices', () => {
  it('creates a recurring price on a product and a one-time price with product_data; lists by product', async () => {
    const product = await stripe.products.create({ name: 'Maya premium', metadata: { creator_id: 'cr_1' } });
    expect(product.id).toMatch(/^prod_/);
    const monthly = await stripe.prices.create({
      product: product.id,
      currency: 'usd',
      unit_amount: 499,
      recurring: { interval: 'month' },
      lookup_key: 'cr_1-month',
    });
    expect(monthly).toMatchObject({
      object: 'price',
      type: 'recurring',
      unit_amount: 499,
      currency: 'usd',
      recurring: { interval: 'month', interval_count: 1 },
      active: true,
    });
    expect(monthly.id).toMatch(/^price_/);
    const oneTime = await stripe.prices.create({
      currency: 'eur',
      unit_amount: 300,
      product_data: { name: 'Episode 3' },
    });
    expect(oneTime).toMatchObject({ type: 'one_time', recurring: null });
    expect((await stripe.prices.list({ product: product.id })).data.map((p) => p.id)).toEqual([monthly.id]);
    expect((await stripe.prices.list({ lookup_keys: ['cr_1-month'] })).data.map((p) => p.id)).toEqual([
      monthly.id,
    ]);
    // Prices are immutable but for active/metadata: a new price replaces an old one.
    const archived = await stripe.prices.update(monthly.id, { active: false });
    expect(archived.active).toBe(false);

    const noAmount = await rejection(stripe.prices.create({ currency: 'usd', product: product.id } as never));
    expect(noAmount).toMatchObject({ statusCode: 400, code: 'parameter_missing', param: 'unit_amount' });
  });
});

describe('checkout sessions', () => {
  it('creates a subscription session with its hosted page url, fee and destination; expands line_items', async () => {
    const account = await onboardedAccount('cr_sub');
    const price = await stripe.prices.create({
      currency: 'usd',
      unit_amount: 999,
      recurring: { interval: 'year' },
      product_data: { name: 'Yearly plan' },
    });
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      client_reference_id: 'u_42',
      customer_email: 'u42@example.com',
      line_items: [{ price: price.id, quantity: 1 }],
      metadata: { kind: 'subscription', creator_id: 'cr_sub' },
      subscription_data: {
        application_fee_percent: 10,
        transfer_data: { destination: account.id },
        metadata: { creator_id: 'cr_sub' },
      },
      success_url: 'http://127.0.0.1:9/done?session={CHECKOUT_SESSION_ID}',
      cancel_url: 'http://127.0.0.1:9/cancel',
    });
    expect(session.id).toMatch(/^cs_test_[A-Za-z0-9]{58}$/);
    expect(session).toMatchObject({
      object: 'checkout.session',
      mode: 'subscription',
      status: 'open',
      payment_status: 'unpaid',
      amount_total: 999,
      currency: 'usd',
      client_reference_id: 'u_42',
      customer: null,
      subscription: null,
      url: `${standIn.endpoint}/c/pay/${session.id}`,
    });
    expect(session.expires_at).toBeGreaterThan(session.created + 3_600);

    const expanded = await stripe.checkout.sessions.retrieve(session.id, { expand: ['line_items'] });
    expect(expanded.line_items?.data).toHaveLength(1);
    expect(expanded.line_items?.data[0]).toMatchObject({ object: 'item', amount_total: 999, quantity: 1 });
    expect(expanded.line_items?.data[0]?.price?.id).toBe(price.id);

    const page = await fetch(session.url!);
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain('$9.99');
    expect(html).toContain('Yearly plan');
    expect(html).toContain('data-testid="pay"');
  });

  it('creates a payment session with price_data, an application fee amount and a destination', async () => {
    const account = await onboardedAccount('cr_ppv');
    const session = await stripe.checkout.sessions.create({
      mode: 'payment',
      client_reference_id: 'u_7',
      line_items: [
        {
          price_data: { currency: 'usd', unit_amount: 250, product_data: { name: 'Live show replay' } },
          quantity: 2,
        },
      ],
      payment_intent_data: {
        application_fee_amount: 50,
        transfer_data: { destination: account.id },
        metadata: { content_id: 'ep_9' },
      },
      success_url: 'http://127.0.0.1:9/ok',
    });
    expect(session).toMatchObject({ mode: 'payment', amount_total: 500, payment_intent: null });
  });

  it('refuses what Stripe refuses: a destination that has not onboarded, a recurring price in payment mode, no quantity', async () => {
    const account = await stripe.accounts.create({ type: 'express' });
    expect(account).toMatchObject({
      charges_enabled: false,
      payouts_enabled: false,
      details_submitted: false,
    });
    const price = await stripe.prices.create({
      currency: 'usd',
      unit_amount: 100,
      recurring: { interval: 'month' },
      product_data: { name: 'p' },
    });
    const notOnboarded = await rejection(
      stripe.checkout.sessions.create({
        mode: 'subscription',
        line_items: [{ price: price.id, quantity: 1 }],
        subscription_data: { application_fee_percent: 10, transfer_data: { destination: account.id } },
      }),
    );
    expect(notOnboarded).toMatchObject({ statusCode: 400, code: 'insufficient_capabilities_for_transfer' });
    const recurringInPayment = await rejection(
      stripe.checkout.sessions.create({ mode: 'payment', line_items: [{ price: price.id, quantity: 1 }] }),
    );
    expect(recurringInPayment).toMatchObject({ statusCode: 400, type: 'StripeInvalidRequestError' });
    const noQuantity = await rejection(
      stripe.checkout.sessions.create({ mode: 'subscription', line_items: [{ price: price.id }] }),
    );
    expect(noQuantity).toMatchObject({ statusCode: 400, param: 'line_items[0][quantity]' });
    const unknownPrice = await rejection(
      stripe.checkout.sessions.create({
        mode: 'subscription',
        line_items: [{ price: 'price_nope', quantity: 1 }],
      }),
    );
    expect(unknownPrice).toMatchObject({ statusCode: 404, code: 'resource_missing' });
  });

  it('answers a retried create with the same Idempotency-Key with the same session, and a reuse with other parameters 400', async () => {
    const price = await stripe.prices.create({
      currency: 'usd',
      unit_amount: 700,
      product_data: { name: 'PPV' },
    });
    const params = {
      mode: 'payment' as const,
      client_reference_id: 'u_9',
      line_items: [{ price: price.id, quantity: 1 }],
    };
    const first = await stripe.checkout.sessions.create(params, { idempotencyKey: 'checkout-u_9-ppv' });
    const again = await stripe.checkout.sessions.create(params, { idempotencyKey: 'checkout-u_9-ppv' });
    expect(again.id).toBe(first.id);
    expect(again.lastResponse.headers['idempotent-replayed']).toBe('true');
    const other = await rejection(
      stripe.checkout.sessions.create(
        { ...params, client_reference_id: 'u_10' },
        { idempotencyKey: 'checkout-u_9-ppv' },
      ),
    );
    expect(other).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
    expect(other.statusCode).toBe(400);
    const fresh = await stripe.checkout.sessions.create(params, { idempotencyKey: 'checkout-u_9-ppv-2' });
    expect(fresh.id).not.toBe(first.id);
  });

  it('expires an open session (status expired, url null) and refuses to expire it twice', async () => {
    const price = await stripe.prices.create({
      currency: 'usd',
      unit_amount: 100,
      product_data: { name: 'x' },
    });
    const session = await stripe.checkout.sessions.create({
      mode: 'payment',
      line_items: [{ price: price.id, quantity: 1 }],
    });
    const expired = await stripe.checkout.sessions.expire(session.id);
    expect(expired).toMatchObject({ status: 'expired', url: null });
    expect((await rejection(stripe.checkout.sessions.expire(session.id))).statusCode).toBe(400);
  });
});

describe('a paid subscription', () => {
  it('is retrievable with periods on its items, its invoice paid with a payment intent and charge carrying the fee', async () => {
    const account = await onboardedAccount('cr_paid');
    const price = await stripe.prices.create({
      currency: 'usd',
      unit_amount: 500,
      recurring: { interval: 'month' },
      product_data: { name: 'Monthly' },
    });
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      client_reference_id: 'u_paid',
      line_items: [{ price: price.id, quantity: 1 }],
      subscription_data: {
        application_fee_percent: 20,
        transfer_data: { destination: account.id },
        metadata: { creator_id: 'cr_paid' },
      },
    });
    expect((await pay(standIn, 'complete', session.id)).status).toBe(200);
    const completed = await stripe.checkout.sessions.retrieve(session.id, { expand: ['subscription'] });
    expect(completed).toMatchObject({ status: 'complete', payment_status: 'paid' });
    expect(completed.customer).toMatch(/^cus_/);
    const subscription = completed.subscription as Stripe.Subscription;
    expect(subscription).toMatchObject({
      object: 'subscription',
      status: 'active',
      cancel_at_period_end: false,
      metadata: { creator_id: 'cr_paid' },
      application_fee_percent: 20,
      transfer_data: { destination: account.id },
    });
    const item = subscription.items.data[0]!;
    expect(item.current_period_end - item.current_period_start).toBeGreaterThanOrEqual(28 * 86_400);
    expect(item.price.id).toBe(price.id);

    const invoice = await stripe.invoices.retrieve(subscription.latest_invoice as string, {
      expand: ['payments'],
    });
    expect(invoice).toMatchObject({
      status: 'paid',
      amount_paid: 500,
      billing_reason: 'subscription_create',
    });
    expect(invoice.parent?.subscription_details?.subscription).toBe(subscription.id);
    const intentId = invoice.payments?.data[0]?.payment.payment_intent as string;
    const intent = await stripe.paymentIntents.retrieve(intentId, { expand: ['latest_charge'] });
    expect(intent).toMatchObject({ status: 'succeeded', amount: 500, application_fee_amount: 100 });
    expect(intent.latest_charge).toMatchObject({
      object: 'charge',
      paid: true,
      amount_refunded: 0,
      refunded: false,
      disputed: false,
      application_fee_amount: 100,
    });

    const listed = await stripe.subscriptions.list({ customer: completed.customer as string });
    expect(listed.data.map((s) => s.id)).toEqual([subscription.id]);

    const cancelling = await stripe.subscriptions.update(subscription.id, { cancel_at_period_end: true });
    expect(cancelling).toMatchObject({
      cancel_at_period_end: true,
      cancel_at: item.current_period_end,
      status: 'active',
    });
    const cancelled = await stripe.subscriptions.cancel(subscription.id);
    expect(cancelled.status).toBe('canceled');
    expect((await stripe.subscriptions.list({ customer: completed.customer as string })).data).toEqual([]);
    expect(
      (await stripe.subscriptions.list({ customer: completed.customer as string, status: 'all' })).data,
    ).toHaveLength(1);
  });

  it('refunds through the API (charge.amount_refunded, refunded) and refuses a second full refund', async () => {
    const price = await stripe.prices.create({
      currency: 'usd',
      unit_amount: 800,
      product_data: { name: 'PPV' },
    });
    const session = await stripe.checkout.sessions.create({
      mode: 'payment',
      line_items: [{ price: price.id, quantity: 1 }],
    });
    await pay(standIn, 'complete', session.id);
    const paid = await stripe.checkout.sessions.retrieve(session.id);
    const refund = await stripe.refunds.create({
      payment_intent: paid.payment_intent as string,
      amount: 300,
    });
    expect(refund).toMatchObject({ object: 'refund', amount: 300, status: 'succeeded' });
    expect(refund.id).toMatch(/^re_/);
    const partly = await stripe.charges.retrieve(refund.charge as string);
    expect(partly).toMatchObject({ amount_refunded: 300, refunded: false });
    await stripe.refunds.create({ charge: partly.id });
    expect(await stripe.charges.retrieve(partly.id)).toMatchObject({ amount_refunded: 800, refunded: true });
    const again = await rejection(stripe.refunds.create({ charge: partly.id }));
    expect(again).toMatchObject({ statusCode: 400, code: 'charge_already_refunded' });
  });

  it('a destination charge refunded with reverse_transfer names its transfer reversal; reason duplicate and metadata kept', async () => {
    const account = await onboardedAccount('cr_dup_refund');
    const paidTo = async (destination: boolean) => {
      const session = await stripe.checkout.sessions.create({
        mode: 'payment',
        line_items: [
          { quantity: 1, price_data: { currency: 'usd', unit_amount: 600, product_data: { name: 'PPV' } } },
        ],
        ...(destination
          ? {
              payment_intent_data: { transfer_data: { destination: account.id }, application_fee_amount: 60 },
            }
          : {}),
      });
      await pay(standIn, 'complete', session.id);
      return (await stripe.checkout.sessions.retrieve(session.id)).payment_intent as string;
    };
    const refund = (payment_intent: string) =>
      stripe.refunds.create({
        payment_intent,
        reason: 'duplicate',
        reverse_transfer: true,
        refund_application_fee: true,
        metadata: { reason: 'duplicate' },
      });
    expect(await refund(await paidTo(true))).toMatchObject({
      amount: 600,
      reason: 'duplicate',
      metadata: { reason: 'duplicate' },
      transfer_reversal: expect.stringMatching(/^trr_/),
    });
    // A charge with no transfer has none to reverse.
    expect(await refund(await paidTo(false))).toMatchObject({ amount: 600, transfer_reversal: null });
    const wrong = await rejection(
      stripe.refunds.create({ payment_intent: await paidTo(true), reason: 'mistake' as 'duplicate' }),
    );
    expect(wrong).toMatchObject({ statusCode: 400, param: 'reason' });
  });
});

describe('Connect and the portal', () => {
  it('makes an onboarding link to a page whose Complete button enables charges and payouts', async () => {
    const account = await stripe.accounts.create({
      type: 'express',
      email: 'c@example.com',
      metadata: { creator_id: 'cr_link' },
    });
    expect(account.id).toMatch(/^acct_/);
    const link = await stripe.accountLinks.create({
      account: account.id,
      type: 'account_onboarding',
      refresh_url: 'http://127.0.0.1:9/refresh',
      return_url: 'http://127.0.0.1:9/return',
    });
    expect(link).toMatchObject({ object: 'account_link' });
    expect((await fetch(link.url)).status).toBe(200);
    const done = await fetch(link.url, { method: 'POST', redirect: 'manual' });
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe('http://127.0.0.1:9/return');
    expect(await stripe.accounts.retrieve(account.id)).toMatchObject({
      charges_enabled: true,
      payouts_enabled: true,
      details_submitted: true,
    });
  });

  it('makes a portal session whose page cancels a subscription at period end', async () => {
    const price = await stripe.prices.create({
      currency: 'usd',
      unit_amount: 500,
      recurring: { interval: 'month' },
      product_data: { name: 'Portal plan' },
    });
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      line_items: [{ price: price.id, quantity: 1 }],
    });
    await pay(standIn, 'complete', session.id);
    const { customer, subscription } = await stripe.checkout.sessions.retrieve(session.id);
    const portal = await stripe.billingPortal.sessions.create({
      customer: customer as string,
      return_url: 'http://127.0.0.1:9/account',
    });
    expect(portal).toMatchObject({ object: 'billing_portal.session', customer });
    const page = await (await fetch(portal.url)).text();
    expect(page).toContain('Portal plan');
    const cancel = await fetch(`${portal.url}/cancel`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `subscription=${subscription}`,
    });
    expect(cancel.status).toBe(303);
    expect((await stripe.subscriptions.retrieve(subscription as string)).cancel_at_period_end).toBe(true);
  });
});
