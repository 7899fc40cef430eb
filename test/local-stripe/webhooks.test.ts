import Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { StripeStandIn } from '../../scripts/local/stripe/server.ts';
import { connectStripeWebhooks, disconnectStripeWebhooks } from '../../scripts/local/stripe/wiring.ts';
import { clientFor, pay, type Receiver, startReceiver, startStandIn } from './support.ts';

/**
 * Webhook delivery: signed as Stripe signs (verified with the official constructEvent), to the
 * endpoints listening (Connect ones get connected accounts' events), retried with backoff, and
 * reordered and duplicated when the shuffle is on.
 */
let standIn: StripeStandIn;
let stripe: Stripe;
let receiver: Receiver;
let secrets: { webhook_secret: string; connect_webhook_secret: string };
/** The stand-in's delivery is tested on every event type (the platform registers fewer: SUBSCRIBED_EVENTS). */
const ALL_EVENTS = { platform: ['*'], connect: ['*'] };

beforeAll(async () => {
  standIn = await startStandIn({ retryBaseMs: 25, maxAttempts: 4 });
  stripe = clientFor(standIn);
  receiver = await startReceiver();
  secrets = await connectStripeWebhooks(standIn, receiver.url, ALL_EVENTS);
});
afterAll(async () => {
  await standIn.stop();
  await receiver.close();
});
afterEach(() => {
  receiver.respond = () => 200;
  standIn.deliverer.shuffle = { reorder: false, duplicate: false };
});

const verified = (path: string, from = 0) =>
  receiver.received
    .slice(from)
    .filter((r) => r.path === path)
    .map((r) =>
      stripe.webhooks.constructEvent(
        r.body,
        r.signature,
        path.endsWith('connect-webhook') ? secrets.connect_webhook_secret : secrets.webhook_secret,
      ),
    );

const subscriptionSession = async (amount = 500) => {
  const price = await stripe.prices.create({
    currency: 'usd',
    unit_amount: amount,
    recurring: { interval: 'month' },
    product_data: { name: 'Plan' },
  });
  return stripe.checkout.sessions.create({
    mode: 'subscription',
    client_reference_id: 'u_1',
    line_items: [{ price: price.id, quantity: 1 }],
  });
};

describe('signed delivery', () => {
  it('delivers each event signed with the endpoint secret; constructEvent verifies it and refuses another secret', async () => {
    const session = await subscriptionSession();
    await standIn.deliverer.drain();
    const from = receiver.received.length;
    const { body } = await pay(standIn, 'complete', session.id);
    await standIn.deliverer.drain();
    const events = verified('/billing/stripe/webhook', from);
    expect(events.map((e) => e.id)).toEqual(body.events.map((e: { id: string }) => e.id));
    expect(events.map((e) => e.type)).toContain('checkout.session.completed');
    const completed = events.find((e) => e.type === 'checkout.session.completed')!;
    expect(completed).toMatchObject({ object: 'event', livemode: false, api_version: '2026-10-28.endive' });
    expect(completed.id).toMatch(/^evt_/);
    expect(completed.data.object).toMatchObject({
      id: session.id,
      status: 'complete',
      client_reference_id: 'u_1',
    });
    expect(Math.abs(completed.created - Date.now() / 1000)).toBeLessThan(5);

    const first = receiver.received[from]!;
    expect(first.signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(() => stripe.webhooks.constructEvent(first.body, first.signature, 'whsec_forged')).toThrow(
      Stripe.errors.StripeSignatureVerificationError,
    );
    expect(() =>
      stripe.webhooks.constructEvent(
        first.body.replace('"livemode": false', '"livemode": true'),
        first.signature,
        secrets.webhook_secret,
      ),
    ).toThrow(Stripe.errors.StripeSignatureVerificationError);
  });

  it('sends a connected account event (with account) to the Connect endpoint only', async () => {
    const from = receiver.received.length;
    const account = await stripe.accounts.create({ type: 'express', metadata: { creator_id: 'cr_hook' } });
    await pay(standIn, 'onboard', 'cr_hook');
    await standIn.deliverer.drain();
    const connect = verified('/billing/stripe/connect-webhook', from);
    expect(connect).toHaveLength(1);
    expect(connect[0]).toMatchObject({
      type: 'account.updated',
      account: account.id,
      data: { object: { id: account.id, charges_enabled: true, payouts_enabled: true } },
    });
    expect(connect[0]!.data.previous_attributes).toMatchObject({ charges_enabled: false });
    expect(verified('/billing/stripe/webhook', from)).toEqual([]);
  });

  it('keeps each event retrievable and listable by type and created[gte]', async () => {
    const since = Math.floor(Date.now() / 1000);
    const session = await subscriptionSession(700);
    const { body } = await pay(standIn, 'complete', session.id);
    const completedId = body.events.find((e: { type: string }) => e.type === 'checkout.session.completed').id;
    const event = await stripe.events.retrieve(completedId);
    expect(event.type).toBe('checkout.session.completed');
    const listed = await stripe.events.list({ type: 'checkout.session.completed', created: { gte: since } });
    expect(listed.data.map((e) => e.id)).toContain(completedId);
    expect(listed.data.every((e) => e.type === 'checkout.session.completed' && e.created >= since)).toBe(
      true,
    );
    const invoices = await stripe.events.list({ type: 'invoice.*', created: { gte: since } });
    expect(new Set(invoices.data.map((e) => e.type))).toEqual(
      new Set(['invoice.created', 'invoice.finalized', 'invoice.paid', 'invoice.payment_succeeded']),
    );
    await standIn.deliverer.drain();
    expect((await stripe.events.retrieve(completedId)).pending_webhooks).toBe(0);
  });
});

describe('retries', () => {
  it('retries a failing endpoint with backoff until it answers 2xx, letting later events overtake', async () => {
    const session = await subscriptionSession();
    await standIn.deliverer.drain();
    const from = receiver.received.length;
    let failures = 2;
    receiver.respond = (path, body) =>
      path === '/billing/stripe/webhook' && body.includes('"type": "customer.created"') && failures-- > 0
        ? 500
        : 200;
    const { body } = await pay(standIn, 'complete', session.id);
    await standIn.deliverer.drain();
    const first = body.events[0].id as string;
    const attempts = standIn.deliverer.attempts.filter(
      (a) => a.event === first && a.url.endsWith('/webhook'),
    );
    expect(attempts.map((a) => [a.attempt, a.status])).toEqual([
      [1, 500],
      [2, 500],
      [3, 200],
    ]);
    const order = verified('/billing/stripe/webhook', from).map((e) => e.id);
    // Delivered once at last, after the events made after it.
    expect(order.filter((id) => id === first)).toHaveLength(3);
    expect(order.lastIndexOf(first)).toBe(order.length - 1);
  });

  it('retries an endpoint that cannot be reached, then gives up after maxAttempts', async () => {
    const endpoint = await stripe.webhookEndpoints.create({
      url: 'http://127.0.0.1:9/hook',
      enabled_events: ['customer.created'],
    });
    expect(endpoint.secret).toMatch(/^whsec_/);
    const customer = await stripe.customers.create({ email: 'dead@example.com' });
    await standIn.deliverer.drain();
    const created = (await stripe.events.list({ type: 'customer.created', limit: 1 })).data[0]!;
    expect(created.data.object).toMatchObject({ id: customer.id });
    const attempts = standIn.deliverer.attempts.filter((a) => a.endpoint === endpoint.id);
    expect(attempts.map((a) => a.attempt)).toEqual([1, 2, 3, 4]);
    expect(attempts.every((a) => a.status === 0 && a.error)).toBe(true);
    expect((await stripe.events.retrieve(created.id)).pending_webhooks).toBe(1);
    await stripe.webhookEndpoints.del(endpoint.id);
  });
});

describe('disconnectStripeWebhooks', () => {
  it("removes one API's two endpoints and no other's, across pages of the endpoint list", async () => {
    const api = 'http://127.0.0.1:9';
    const list = async () =>
      (await stripe.webhookEndpoints.list({ limit: 100 }).autoPagingToArray({ limit: 1000 })).map(
        (e) => e.id,
      );
    const before = await list();
    await connectStripeWebhooks(standIn, api, ALL_EVENTS);
    // Registered after the API's: the list is newest first, so the API's are on its second page.
    const others = await Promise.all(
      Array.from({ length: 101 }, (_, i) =>
        stripe.webhookEndpoints.create({ url: `http://127.0.0.1:9${i + 10}/hook`, enabled_events: ['*'] }),
      ),
    );
    expect(await disconnectStripeWebhooks(standIn, api)).toHaveLength(2);
    expect((await list()).sort()).toEqual([...before, ...others.map((e) => e.id)].sort());
    for (const endpoint of others) await stripe.webhookEndpoints.del(endpoint.id);
  });
});

describe('shuffle', () => {
  it("reorders a change's events and sends some twice, every copy signed", async () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 16807) % 2147483647;
      return seed / 2147483647;
    };
    const shuffled = await startStandIn({ shuffle: { reorder: true, duplicate: true }, random });
    const sink = await startReceiver();
    try {
      const client = clientFor(shuffled);
      const keys = await connectStripeWebhooks(shuffled, sink.url, ALL_EVENTS);
      const price = await client.prices.create({
        currency: 'usd',
        unit_amount: 300,
        recurring: { interval: 'month' },
        product_data: { name: 'p' },
      });
      const session = await client.checkout.sessions.create({
        mode: 'subscription',
        line_items: [{ price: price.id, quantity: 1 }],
      });
      const { body } = await pay(shuffled, 'complete', session.id);
      await shuffled.deliverer.drain();
      const created = body.events.map((e: { id: string }) => e.id) as string[];
      const received = sink.received
        .filter((r) => r.path === '/billing/stripe/webhook')
        .map((r) => client.webhooks.constructEvent(r.body, r.signature, keys.webhook_secret).id)
        .filter((id) => created.includes(id));
      const firstSeen = [...new Set(received)];
      expect(new Set(firstSeen)).toEqual(new Set(created));
      expect(firstSeen).not.toEqual(created);
      expect(received.length).toBeGreaterThan(created.length);
    } finally {
      await shuffled.stop();
      await sink.close();
    }
  });

  it('is switched on and off through the control API', async () => {
    const on = await fetch(`${standIn.endpoint}/_standin/shuffle`, {
      method: 'POST',
      body: JSON.stringify({ reorder: true, duplicate: true }),
    });
    expect(await on.json()).toEqual({ reorder: true, duplicate: true });
    expect(standIn.deliverer.shuffle).toEqual({ reorder: true, duplicate: true });
    await fetch(`${standIn.endpoint}/_standin/shuffle`, { method: 'POST', body: '{}' });
    expect(standIn.deliverer.shuffle).toEqual({ reorder: false, duplicate: false });
  });
});
