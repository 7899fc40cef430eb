import { createEpisode } from '../../shared/studio/show-writes.ts';
import type { CreateEpisodeBody } from '../../shared/studio/schemas.ts';
import { randomUUID } from 'node:crypto';
import type Stripe from 'stripe';
import { beforeAll, describe, expect, it } from 'vitest';
import { sellingCreators } from '../../scripts/local/stripe/demo.ts';
import type { Catalog } from '../../shared/catalog/model.ts';
import { clock } from '../../shared/clock.ts';
import { issueAccessToken } from '../../shared/identity/access-token.ts';
import { stripeClient } from '../../shared/payments/stripe-client.ts';
import { DEMO_VIEWER, GATED_LIVE_CREATOR_ID, generateCatalog } from '../../scripts/seed/generate.ts';
import { type ApiResponse, type TestApi, testApi } from '../support/api.ts';
import { onboardCreator, pay, stripeStandIn } from '../support/payments.ts';
import { type StudioCreator, studioCreator } from '../support/studio.ts';
import { waitFor } from '../support/wait.ts';

/**
 * Issue 36 items 4 and 6: every paid charge pays the creator (a destination charge with the
 * platform's fee), so a creator whose Stripe account cannot take charges sells nothing; and the
 * demo creators who sell something can be bought from as soon as the platform is up.
 */
let api: TestApi;
let client: Stripe;
let creator: StudioCreator;
let ppvId: string;
beforeAll(async () => {
  api = await testApi();
  const { endpoint, secretKey } = stripeStandIn();
  client = stripeClient(secretKey, endpoint);
  creator = await studioCreator(api, 'music');
  const show = await api.post('/studio/shows', {
    token: creator.token,
    body: { title: 'Paid Loops', description: 'Loops for money.', category: 'music', rating: 'TV-PG' },
  });
  // A pay-per-view item of a creator who cannot take payments (the studio refuses a paid price
  // before onboarding with a 409, tested in test/studio/shows.int.test.ts; an account whose
  // charges Stripe disables later is in this state): written as the studio's route writes it.
  const episode = await createEpisode(
    creator.creatorId,
    show.body.data.show_id,
    {
      season: 1,
      episode_number: 1,
      title: 'Loop 1',
      duration_seconds: 1800,
      is_free: false,
      access: 'ppv',
      price: 2.99,
      currency: 'USD',
    } as CreateEpisodeBody,
    new Date(),
  );
  ppvId = episode.id;
}, 60_000);

const viewer = async () => (await issueAccessToken(`acc_co_${randomUUID()}`, new Date())).token;

const cannotTakePayments = (res: ApiResponse, field: 'creator_id' | 'content_id') => {
  expect(res.status).toBe(422);
  expect(res.body.errors).toEqual([
    { field, message: expect.stringMatching(/^This creator cannot take payments yet/) },
  ]);
};

/** The connected account a completed checkout's money went to, and the platform's fee on it. */
const paidTo = async (checkoutId: string) => {
  await pay('complete', checkoutId);
  const session = await client.checkout.sessions.retrieve(checkoutId, {
    expand: ['subscription', 'payment_intent'],
  });
  const subscription = session.subscription as Stripe.Subscription | null;
  const intent = session.payment_intent as Stripe.PaymentIntent | null;
  const destination = subscription?.transfer_data?.destination ?? intent?.transfer_data?.destination;
  const account = await client.accounts.retrieve(
    typeof destination === 'string' ? destination : (destination?.id ?? 'none'),
  );
  return {
    creator_id: account.metadata?.creator_id,
    charges_enabled: account.charges_enabled,
    fee: subscription ? subscription.application_fee_percent : intent?.application_fee_amount,
  };
};

describe('POST /checkout pays the creator (shared/payments/checkout.ts)', () => {
  it('a creator whose payout account cannot take charges sells nothing: 422 on creator_id or content_id', async () => {
    const token = await viewer();
    const id = creator.creatorId;
    cannotTakePayments(await api.post('/checkout', { token, body: { creator_id: id } }), 'creator_id');
    cannotTakePayments(await api.post(`/creators/${id}/subscription`, { token }), 'creator_id');
    cannotTakePayments(await api.post('/checkout', { token, body: { content_id: ppvId } }), 'content_id');
    // Onboarding started, not finished: the account exists but cannot take charges yet.
    expect((await api.post('/studio/payouts/onboarding', { token: creator.token })).status).toBe(201);
    cannotTakePayments(await api.post('/checkout', { token, body: { creator_id: id } }), 'creator_id');
    // Nor can it put a price on sale: 409 until Stripe enables charges.
    const plan = await api.put('/studio/plan', {
      token: creator.token,
      body: { price: 7.5, currency: 'EUR', interval: 'year' },
    });
    expect(plan.status).toBe(409);
    expect(plan.body.message).toMatch(/^Connect payouts first/);
  });

  it("onboarded, a subscription and a pay-per-view item are destination charges to the creator's account, with the platform's fee", async () => {
    await onboardCreator(api, creator.token, creator.creatorId);
    const token = await viewer();
    const plan = await api.post('/checkout', { token, body: { creator_id: creator.creatorId } });
    expect(plan.status).toBe(201);
    expect(await paidTo(plan.body.data.checkout_id)).toEqual({
      creator_id: creator.creatorId,
      charges_enabled: true,
      fee: expect.any(Number),
    });
    const item = await api.post('/checkout', { token, body: { content_id: ppvId } });
    expect(item.status).toBe(201);
    const paid = await paidTo(item.body.data.checkout_id);
    expect(paid).toMatchObject({ creator_id: creator.creatorId, charges_enabled: true });
    expect(paid.fee).toBeGreaterThan(0);
    expect(paid.fee).toBeLessThan(299);
  });

  it('a creator cannot pay themself: their own plan (by id or handle) or pay-per-view item is a 422, no checkout (was a 201)', async () => {
    const own = (res: ApiResponse, field: 'creator_id' | 'content_id') => {
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual([{ field, message: expect.stringMatching(/your own/) }]);
    };
    const token = creator.token;
    own(await api.post('/checkout', { token, body: { creator_id: creator.creatorId } }), 'creator_id');
    own(await api.post('/checkout', { token, body: { creator_id: creator.handle } }), 'creator_id');
    own(await api.post(`/creators/${creator.creatorId}/subscription`, { token }), 'creator_id');
    own(await api.post('/checkout', { token, body: { content_id: ppvId } }), 'content_id');
  });

  it('PUT /studio/plan puts a new price on sale: the next checkout (by handle) charges it, validation first', async () => {
    const bad = await api.put('/studio/plan', {
      token: creator.token,
      body: { price: 7.505, currency: 'XYZ', interval: 'week' },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      'currency',
      'interval',
      'price',
    ]);
    const plan = await api.put('/studio/plan', {
      token: creator.token,
      body: { price: 7.5, currency: 'EUR', interval: 'year' },
    });
    expect(plan.status).toBe(200);
    expect(plan.body.data).toEqual({
      price: 7.5,
      currency: 'EUR',
      interval: 'year',
      price_id: expect.any(String),
    });
    const price = await client.prices.retrieve(plan.body.data.price_id);
    expect(price).toMatchObject({ unit_amount: 750, currency: 'eur', recurring: { interval: 'year' } });
    const byHandle = await api.post('/checkout', {
      token: await viewer(),
      body: { creator_id: creator.handle },
    });
    expect(byHandle.status).toBe(201);
    expect(byHandle.body.data).toMatchObject({ amount: 7.5, currency: 'EUR' });
    // A viewer is not a studio: 403.
    expect(
      (
        await api.put('/studio/plan', {
          token: await viewer(),
          body: { price: 1, currency: 'USD', interval: 'month' },
        })
      ).status,
    ).toBe(403);
  });
});

describe('one paid checkout per account and item', () => {
  const sellers = () => {
    const [seller] = sellingCreators(generateCatalog({ now: api.seededAt, seed: 42 })).slice(-3);
    const ppv = generateCatalog({ now: api.seededAt, seed: 42 }).episodes.find(
      (e) => e.access === 'ppv' && e.creator_id !== seller!.id,
    )!;
    return [{ creator_id: seller!.id }, { content_id: ppv.id }];
  };
  /** Two open sessions for one thing: the same request, the second 31 minutes later (another idempotency window). */
  const twoSessions = async (accountId: string, body: { creator_id?: string; content_id?: string }) => {
    const now = new Date();
    const first = await api.post('/checkout', {
      token: (await issueAccessToken(accountId, now)).token,
      body,
    });
    const later = new Date(now.getTime() + 31 * 60_000);
    const realNow = clock.now;
    clock.now = () => later;
    const second = await api
      .post('/checkout', { token: (await issueAccessToken(accountId, later)).token, body })
      .finally(() => {
        clock.now = realNow;
      });
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.body.data.checkout_id).not.toBe(first.body.data.checkout_id);
    return [first.body.data.checkout_id as string, second.body.data.checkout_id as string] as const;
  };

  it('paying one session expires the sibling opened in another 30-minute window (the outside probe: both were paid)', async () => {
    const accountId = `acc_co_${randomUUID()}`;
    for (const body of sellers()) {
      const [first, second] = await twoSessions(accountId, body);
      await pay('complete', first);
      await waitFor(
        async () => (await client.checkout.sessions.retrieve(second)).status === 'expired',
        'the sibling session expired',
        5000,
      );
      await expect(pay('complete', second)).rejects.toThrow(/409/);
    }
  });

  it('both sessions paid before either webhook: through the webhook route, one subscription bills and one charge of the item stays; the other is refunded as a duplicate', async () => {
    const accountId = `acc_co_${randomUUID()}`;
    const token = (await issueAccessToken(accountId, new Date())).token;
    const refundReasons = async (intent: string) =>
      (await client.refunds.list({ payment_intent: intent })).data.map((r) => r.reason);
    for (const body of sellers()) {
      const ids = await twoSessions(accountId, body);
      await Promise.all(ids.map((id) => pay('complete', id)));
      const paid = await Promise.all(ids.map((id) => client.checkout.sessions.retrieve(id)));
      // The intents whose charges were paid: the subscriptions' first invoices', or the purchases'.
      const intentsOf = async () =>
        Promise.all(
          paid.map(async (session) => {
            if (session.payment_intent) return session.payment_intent as string;
            const sub = await client.subscriptions.retrieve(session.subscription as string);
            const payments = await client.invoicePayments.list({ invoice: sub.latest_invoice as string });
            return payments.data[0]!.payment.payment_intent as string;
          }),
        );
      const intents = await intentsOf();
      await waitFor(
        async () => {
          const reasons = await Promise.all(intents.map(refundReasons));
          return reasons.flat().length === 1 && reasons.flat()[0] === 'duplicate';
        },
        'exactly one of the two charges refunded as a duplicate',
        10_000,
      );
      if (body.creator_id) {
        const statuses = await Promise.all(
          paid.map(async (s) => (await client.subscriptions.retrieve(s.subscription as string)).status),
        );
        expect(statuses.sort()).toEqual(['active', 'canceled']);
      }
      const held = (await api.get('/me/entitlements', { token })).body.data.entitlements.filter(
        (e: { creator_id: string; content_id: string | null }) =>
          body.creator_id
            ? e.creator_id === body.creator_id && !e.content_id
            : e.content_id === body.content_id,
      );
      expect(held.map((e: { grants_access: boolean }) => e.grants_access)).toEqual([true]);
    }
  }, 30_000);
});

describe('the demo catalogue sells from the first minute (scripts/local/stripe/demo.ts)', () => {
  let catalog: Catalog;
  beforeAll(() => {
    catalog = generateCatalog({ now: api.seededAt, seed: 42 });
  });

  it("the demo viewer buys a demo creator's premium plan right after start: 201, paid to the creator's onboarded account", async () => {
    const sellers = sellingCreators(catalog);
    // Every creator with premium or pay-per-view content sells, the gated live channel's included.
    const premium = new Set(catalog.episodes.filter((e) => e.access !== 'free').map((e) => e.creator_id));
    expect(sellers.map((c) => c.id)).toEqual(expect.arrayContaining([...premium, GATED_LIVE_CREATOR_ID]));
    const seller = sellers.find(
      (c) =>
        c.id !== GATED_LIVE_CREATOR_ID &&
        catalog.episodes.some((e) => e.creator_id === c.id && e.access === 'premium'),
    )!;
    const login = await api.post('/auth/login', {
      body: { email: DEMO_VIEWER.email, password: DEMO_VIEWER.password },
    });
    expect(login.status).toBe(200);
    const demo = await api.post('/checkout', {
      token: login.body.data.auth_token,
      body: { creator_id: seller.id },
    });
    expect(demo.status).toBe(201);
    expect(demo.body.data).toMatchObject({ amount: seller.plan.price, currency: seller.plan.currency });
    // Paid (by a viewer of its own: the shared demo account stays unsubscribed for other tests).
    const bought = await api.post('/checkout', { token: await viewer(), body: { creator_id: seller.id } });
    expect(bought.status).toBe(201);
    expect(await paidTo(bought.body.data.checkout_id)).toEqual({
      creator_id: seller.id,
      charges_enabled: true,
      fee: expect.any(Number),
    });
  });

  it('a demo pay-per-view item can be bought at once', async () => {
    const ppv = catalog.episodes.find((e) => e.access === 'ppv')!;
    const checkout = await api.post('/checkout', { token: await viewer(), body: { content_id: ppv.id } });
    expect(checkout.status).toBe(201);
    expect(checkout.body.data).toMatchObject({ amount: ppv.price, currency: ppv.currency });
  });
});
