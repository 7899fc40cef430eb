import { randomUUID } from 'node:crypto';
import type { DynamoDBRecord } from 'aws-lambda';
import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reconcileRow } from '../../functions/payments/workers.ts';
import { functionContext, runAsFunction } from '../../scripts/local/aws.ts';
import { runPayAction } from '../../scripts/local/stripe/control.ts';
import { type StripeStandIn, startStripeStandIn } from '../../scripts/local/stripe/server.ts';
import { type TableStream, startTableStream } from '../../scripts/local/table-stream.ts';
import { paymentFactsOf } from '../../shared/analytics/payment-facts.ts';
import { tableName } from '../../shared/db/table.ts';
import {
  type EntitlementRecord,
  getEntitlement,
  grants,
} from '../../shared/entitlements/entitlement-repository.ts';
import { earningsOf } from '../../shared/payments/payout-repository.ts';
import { reconcile } from '../../shared/payments/reconcile.ts';
import { stripeClient } from '../../shared/payments/stripe-client.ts';
import type { SyncContext } from '../../shared/payments/stripe-sync.ts';
import { handleDelivery } from '../../shared/payments/stripe-webhook.ts';
import { checkoutParams, earningTotals } from '../support/payments.ts';

/**
 * A customer who pays twice for one thing ends with one payment (docs/payments.md, "Two payments
 * for one thing"): two Checkout Sessions for one creator's plan, or for one pay-per-view item,
 * both paid before any webhook is delivered. Whatever the order of the webhooks (and one
 * delivered twice at once, as a retry racing the first attempt), one subscription bills and the
 * other is cancelled with its charge refunded as a duplicate, the entitlement grants from the
 * kept payment after every delivery, and the creator's earnings and the analysts' payment facts
 * both count one payment. Against the Stripe stand-in and DynamoDB Local (its table stream).
 */
const SECRET = 'whsec_test_duplicates';
let standIn: StripeStandIn;
let ctx: SyncContext;
/**
 * `fn` as the daily reconcile's function runs it: its own IAM grants (reconcileRow) on every AWS
 * call, so a repair its role could not make on AWS is refused here too (scripts/local/aws.ts).
 */
const asReconcile = <T>(fn: () => Promise<T>): Promise<T> => runAsFunction(functionContext(reconcileRow), fn);
let stream: TableStream;
const streamed: DynamoDBRecord[] = [];

beforeAll(async () => {
  standIn = await startStripeStandIn({ port: 0 });
  ctx = {
    stripe: stripeClient(standIn.secretKey, standIn.endpoint),
    now: () => new Date(),
    graceDays: 7,
    feePercent: 10,
  };
  stream = await startTableStream({
    tableName: tableName(),
    pollMs: 50,
    startingPosition: 'LATEST',
    handler: (event) => {
      streamed.push(...event.Records);
    },
  });
}, 30_000);
afterAll(async () => {
  await stream?.stop();
  await standIn?.stop();
});

type StoredEvent = { id: string; object: string; created: number; type: string };
const delivered = new Set<string>();
const deliver = async (eventId: string) => {
  delivered.add(eventId);
  const raw = JSON.stringify(standIn.store.find<StoredEvent>('event', eventId));
  const signature = ctx.stripe.webhooks.generateTestHeaderString({ payload: raw, secret: SECRET });
  return handleDelivery(ctx, SECRET, raw, signature, new Date());
};
/** Events the stand-in made that were never delivered (the cancellations' and refunds' own), oldest first. */
const undelivered = () =>
  standIn.store
    .all<StoredEvent>('event')
    .filter((event) => !delivered.has(event.id))
    .reverse()
    .map((event) => event.id);

const earliest = <T extends { id: string; created: number }>(a: T, b: T): [T, T] =>
  a.created < b.created || (a.created === b.created && a.id < b.id) ? [a, b] : [b, a];

/** A buyer (its Stripe customer) and two sessions for the same thing, both paid; no webhook delivered. */
const paidTwice = async (mode: 'subscription' | 'payment') => {
  const accountId = `acc_dup_${randomUUID()}`;
  const creatorId = `cr_dup_${randomUUID().slice(0, 8)}`;
  const contentId = mode === 'payment' ? `ep_dup_${randomUUID().slice(0, 8)}` : undefined;
  const metadata = {
    account_id: accountId,
    creator_id: creatorId,
    ...(contentId ? { content_id: contentId } : {}),
  };
  const customer = await ctx.stripe.customers.create({ metadata: { account_id: accountId } });
  // Destination charges to the creator's onboarded Connect account, with the platform's fee (checkout.ts).
  const creator = await ctx.stripe.accounts.create({ type: 'express', metadata: { creator_id: creatorId } });
  runPayAction(standIn.store, 'onboard', creator.id);
  const open = () =>
    ctx.stripe.checkout.sessions.create(
      checkoutParams(mode, metadata, { customer: customer.id, destination: creator.id }),
    );
  const sessions = [await open(), await open()];
  const events = sessions.map((session) =>
    runPayAction(standIn.store, 'complete', session.id).events.map((e) => e.id),
  );
  const paid = await Promise.all(
    sessions.map((session) => ctx.stripe.checkout.sessions.retrieve(session.id)),
  );
  return { accountId, creatorId, contentId, events: events as [string[], string[]], paid };
};

/** Delivers `ids` one by one; after each, the entitlement is absent or grants from `keptId` (never anything else). */
const deliverChecking = async (
  ids: string[],
  target: () => Promise<EntitlementRecord | undefined>,
  keptId: string,
  twice?: string,
) => {
  for (const id of ids) {
    if (id === twice) await Promise.all([deliver(id), deliver(id)]);
    else await deliver(id);
    const held = await target();
    if (held === undefined) continue;
    expect({
      after: id,
      grants: grants(held, new Date()),
      from: held.provider.subscription_id ?? held.provider.payment_intent_id,
    }).toEqual({
      after: id,
      grants: true,
      from: keptId,
    });
  }
};

type Order = 'first-then-second' | 'second-then-first' | 'interleaved, one delivered twice at once';
const ORDERS: Order[] = [
  'first-then-second',
  'second-then-first',
  'interleaved, one delivered twice at once',
];
const ordered = (order: Order, [a, b]: [string[], string[]]) => {
  if (order === 'first-then-second') return { ids: [...a, ...b] };
  if (order === 'second-then-first') return { ids: [...b, ...a] };
  const ids = a.flatMap((id, i) => [id, ...(b[i] ? [b[i]] : [])]).concat(b.slice(a.length));
  return {
    ids,
    twice: b.find((id) => standIn.store.find<StoredEvent>('event', id)?.type.startsWith('checkout.session')),
  };
};

/** The refunds of a payment intent, as the tests compare them. */
const refundsOf = async (intentId: string) =>
  (await ctx.stripe.refunds.list({ payment_intent: intentId })).data.map((r) => ({
    amount: r.amount,
    reason: r.reason,
    metadata: r.metadata,
    transfer_reversal: r.transfer_reversal,
  }));
/** A duplicate's refund: whole, reason and metadata `duplicate`, the creator's transfer reversed with it. */
const duplicateRefund = (amount: number, keptId: string) => ({
  amount,
  reason: 'duplicate',
  metadata: { reason: 'duplicate', duplicate_of: keptId },
  transfer_reversal: expect.stringMatching(/^trr_/),
});

/** The payment facts of the account's entitlement writes, as the projector makes them from the stream. */
const factsOf = async (accountId: string) => {
  await stream.drain();
  const mine = streamed.filter((r) => r.dynamodb?.NewImage?.account_id?.S === accountId);
  return (await Promise.all(mine.map((r) => paymentFactsOf(r, new Date())))).flat();
};

describe('two paid sessions for one creator end with one subscription (shared/payments/stripe-sync.ts)', () => {
  it.each(ORDERS)(
    'webhooks %s: one billing, the other cancelled and refunded; earnings and facts count one',
    async (order) => {
      const buyer = await paidTwice('subscription');
      const subs = await Promise.all(
        buyer.paid.map((s) => ctx.stripe.subscriptions.retrieve(s.subscription as string)),
      );
      const [kept, duplicate] = earliest(subs[0]!, subs[1]!);
      const target = () =>
        getEntitlement(buyer.accountId, { kind: 'subscription', creatorId: buyer.creatorId });
      const { ids, twice } = ordered(order, buyer.events);
      await deliverChecking(ids, target, kept.id, twice);
      // The cancellation's and the refund's own events (customer.subscription.updated/deleted, charge.refunded).
      await deliverChecking(undelivered(), target, kept.id);
      // Retried: every event once more (each is acknowledged as a duplicate) and a daily reconcile.
      for (const id of [...ids]) expect((await deliver(id)).outcome).toBe('duplicate');
      await asReconcile(() => reconcile(ctx, { eventDays: 3, paymentDays: -1 }));
      await deliverChecking(undelivered(), target, kept.id);

      const [keptNow, duplicateNow] = await Promise.all(
        [kept, duplicate].map((s) => ctx.stripe.subscriptions.retrieve(s.id)),
      );
      expect(keptNow!.status).toBe('active');
      expect(duplicateNow!.status).toBe('canceled');
      expect(duplicateNow!.metadata).toMatchObject({ reason: 'duplicate', duplicate_of: kept.id });
      const refundsOfSubscription = async (sub: Stripe.Subscription) => {
        const invoice = await ctx.stripe.invoices.retrieve(sub.latest_invoice as string);
        const payment = (await ctx.stripe.invoicePayments.list({ invoice: invoice.id })).data[0]!;
        return refundsOf(payment.payment.payment_intent as string);
      };
      expect(await refundsOfSubscription(keptNow!)).toEqual([]);
      expect(await refundsOfSubscription(duplicateNow!)).toEqual([duplicateRefund(499, kept.id)]);
      const held = await target();
      expect(held).toMatchObject({ status: 'active', provider: { subscription_id: kept.id } });

      // The creator is credited one payment: the duplicate's invoice earning and its reversal cancel out.
      const earnings = await earningsOf(buyer.creatorId);
      const sum = (key: 'gross' | 'platform_fee' | 'net') => earnings.reduce((total, e) => total + e[key], 0);
      expect(earnings).toHaveLength(3);
      expect({ gross: sum('gross'), fee: sum('platform_fee'), net: sum('net') }).toEqual({
        gross: 499,
        fee: 50,
        net: 449,
      });
      // The monthly totals GET /studio/payouts reads say the same.
      const totals = await earningTotals(buyer.creatorId);
      expect(totals.stored).toEqual(totals.fromEarnings);
      // The analysts see one subscription start of 4.99 and nothing else that moves money.
      const facts = await factsOf(buyer.accountId);
      expect(facts.map((f) => ({ type: f.type, amount: f.amount, net: f.net }))).toEqual([
        { type: 'subscription.started', amount: 499, net: 449 },
      ]);
    },
    60_000,
  );
});

describe('the daily reconcile (shared/payments/reconcile.ts)', () => {
  it('every webhook lost, no event in its window: the reconcile keeps the earliest subscription and cancels and refunds the other', async () => {
    const buyer = await paidTwice('subscription');
    for (const id of buyer.events.flat()) delivered.add(id); // never delivered
    const subs = await Promise.all(
      buyer.paid.map((s) => ctx.stripe.subscriptions.retrieve(s.subscription as string)),
    );
    const [kept, duplicate] = earliest(subs[0]!, subs[1]!);
    const target = () =>
      getEntitlement(buyer.accountId, { kind: 'subscription', creatorId: buyer.creatorId });
    // The subscriptions pass alone: no event window (the events are older than it, or lost).
    const report = await asReconcile(() => reconcile(ctx, { eventDays: -1, paymentDays: -1 }));
    expect(report.events).toBe(0);
    expect(report.repaired).toBeGreaterThanOrEqual(1);
    expect(await target()).toMatchObject({ status: 'active', provider: { subscription_id: kept.id } });
    expect((await ctx.stripe.subscriptions.retrieve(duplicate.id)).status).toBe('canceled');
    await deliverChecking(undelivered(), target, kept.id);
    expect((await ctx.stripe.subscriptions.retrieve(kept.id)).status).toBe('active');
    // The duplicate's invoice: its earning and its reversal (the kept one's comes with invoice.paid).
    const ofDuplicate = (await earningsOf(buyer.creatorId)).filter((e) =>
      e.source_id.startsWith(duplicate.latest_invoice as string),
    );
    expect(ofDuplicate.map((e) => e.gross).sort((a, b) => a - b)).toEqual([-499, 499]);
  }, 60_000);
});

describe('two paid sessions for one pay-per-view item end with one charge (shared/payments/stripe-sync.ts)', () => {
  it.each(ORDERS)(
    'webhooks %s: one charge kept, the other refunded in full; earnings and facts count one',
    async (order) => {
      const buyer = await paidTwice('payment');
      const intents = await Promise.all(
        buyer.paid.map((s) => ctx.stripe.paymentIntents.retrieve(s.payment_intent as string)),
      );
      const [kept, duplicate] = earliest(intents[0]!, intents[1]!);
      const target = () =>
        getEntitlement(buyer.accountId, {
          kind: 'purchase',
          creatorId: buyer.creatorId,
          contentId: buyer.contentId!,
        });
      const { ids, twice } = ordered(order, buyer.events);
      await deliverChecking(ids, target, kept.id, twice);
      await deliverChecking(undelivered(), target, kept.id);
      for (const id of [...ids]) expect((await deliver(id)).outcome).toBe('duplicate');

      expect(await refundsOf(kept.id)).toEqual([]);
      expect(await refundsOf(duplicate.id)).toEqual([duplicateRefund(299, kept.id)]);
      expect(await target()).toMatchObject({ status: 'active', provider: { payment_intent_id: kept.id } });

      const earnings = await earningsOf(buyer.creatorId);
      const sum = (key: 'gross' | 'platform_fee' | 'net') => earnings.reduce((total, e) => total + e[key], 0);
      expect(earnings).toHaveLength(3);
      expect({ gross: sum('gross'), fee: sum('platform_fee'), net: sum('net') }).toEqual({
        gross: 299,
        fee: 30,
        net: 269,
      });
      const facts = await factsOf(buyer.accountId);
      expect(facts.map((f) => ({ type: f.type, amount: f.amount, net: f.net }))).toEqual([
        { type: 'purchase.completed', amount: 299, net: 269 },
      ]);
    },
    60_000,
  );
});

describe('what is not a duplicate (shared/payments/stripe-sync.ts, PAID_UP and the window)', () => {
  /** Two paid subscriptions for one creator, the earlier one changed by `change` before any webhook. */
  const twoSubscriptions = async (change: (earlier: Stripe.Subscription) => void) => {
    const buyer = await paidTwice('subscription');
    const subs = await Promise.all(
      buyer.paid.map((s) => ctx.stripe.subscriptions.retrieve(s.subscription as string)),
    );
    const [earlier, later] = earliest(subs[0]!, subs[1]!);
    change(earlier);
    const target = () =>
      getEntitlement(buyer.accountId, { kind: 'subscription', creatorId: buyer.creatorId });
    for (const id of [...buyer.events.flat(), ...undelivered()]) await deliver(id);
    await asReconcile(() => reconcile(ctx, { eventDays: 3, paymentDays: -1 }));
    for (const id of undelivered()) await deliver(id);
    const earlierNow = await ctx.stripe.subscriptions.retrieve(earlier.id);
    const laterNow = await ctx.stripe.subscriptions.retrieve(later.id);
    return { earlierNow, laterNow, held: await target() };
  };
  const refundsOfLatest = async (sub: Stripe.Subscription) => {
    const invoice = await ctx.stripe.invoices.retrieve(sub.latest_invoice as string);
    const payments = (await ctx.stripe.invoicePayments.list({ invoice: invoice.id })).data;
    return (await Promise.all(payments.map((p) => refundsOf(p.payment.payment_intent as string)))).flat();
  };

  it('an earlier subscription whose renewal failed is never kept over a paid one: nothing is refunded', async () => {
    const { earlierNow, laterNow, held } = await twoSubscriptions((earlier) => {
      runPayAction(standIn.store, 'fail-renewal', earlier.id);
    });
    expect(earlierNow.status).toBe('past_due');
    expect(laterNow.status).toBe('active');
    expect(laterNow.metadata).not.toHaveProperty('duplicate_of');
    expect(await refundsOfLatest(laterNow)).toEqual([]);
    expect(held).toMatchObject({ status: 'active', provider: { subscription_id: laterNow.id } });
  }, 60_000);

  it('two subscriptions started more than 3 days apart are two purchases: both bill, nothing is refunded', async () => {
    const { earlierNow, laterNow, held } = await twoSubscriptions((earlier) => {
      // The stand-in's record of the earlier one, as if it had been made four days before.
      standIn.store.find<StoredEvent>('subscription', earlier.id)!.created -= 4 * 86_400;
    });
    expect([earlierNow.status, laterNow.status]).toEqual(['active', 'active']);
    expect(await refundsOfLatest(earlierNow)).toEqual([]);
    expect(await refundsOfLatest(laterNow)).toEqual([]);
    expect(grants(held, new Date())).toBe(true);
  }, 60_000);
});
