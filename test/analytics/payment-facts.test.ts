import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DynamoDBRecord } from 'aws-lambda';
import { marshall } from '@aws-sdk/util-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Row, runMetrics } from '../../analytics/metrics.ts';
import { exportPaymentFacts, paymentFactsOf } from '../../shared/analytics/payment-facts.ts';
import { accountKeyOf } from '../../shared/analytics/pseudonym.ts';
import { useSink } from '../../shared/analytics/sink.ts';
import { fileSink } from '../../scripts/local/file-sink.ts';
import { exportTitles } from '../../shared/analytics/title-dimension.ts';
import { type EntitlementRecord, entitlementItem } from '../../shared/entitlements/entitlement-repository.ts';

/**
 * Known truth for the payment metrics (issue 36 item 5): entitlement changes as the table stream
 * carries them go through the projector's hook into the local sink, then the queries run in
 * DuckDB. Creator cr_pay ("Maya Pays"), fee 10 %:
 * - day 1 (2026-11-22): acc_1 subscribes monthly at 4.99, acc_2 yearly at 49.90 (MRR 4.1583),
 *   acc_3 buys ep_x for 2.99; the stream delivers acc_1's start twice (a retried batch);
 * - day 2: the purchase is refunded; acc_1 cancels, then the subscription expires.
 */
const dir = mkdtempSync(join(tmpdir(), 'payments-'));
const DAY1 = Date.parse('2026-11-22T00:00:00Z');
const HOUR = 3_600_000;
const at = (ms: number) => new Date(DAY1 + ms).toISOString();

const subscription = (account: string, amount: number, interval: 'month' | 'year'): EntitlementRecord => ({
  account_id: account,
  kind: 'subscription',
  creator_id: 'cr_pay',
  content_id: null,
  source: 'stripe',
  status: 'active',
  valid_until: at(40 * 24 * HOUR),
  grace_until: null,
  cancel_at_period_end: false,
  started_at: at(0),
  observed_at: 0,
  provider: {},
  price: { amount, currency: 'usd', interval, platform_fee: Math.round(amount / 10) },
});
const purchase: EntitlementRecord = {
  ...subscription('acc_3', 299, 'month'),
  kind: 'purchase',
  content_id: 'ep_x',
  valid_until: null,
  price: { amount: 299, currency: 'usd', interval: null, platform_fee: 30 },
};

let sequence = 0;
/** A stream record of one entitlement write at `ms` after day 1 began. */
const change = (
  ms: number,
  after: EntitlementRecord,
  before?: EntitlementRecord,
  seq = String(++sequence),
): DynamoDBRecord => ({
  eventName: before ? 'MODIFY' : 'INSERT',
  dynamodb: {
    SequenceNumber: seq,
    ApproximateCreationDateTime: (DAY1 + ms) / 1000,
    NewImage: marshall(entitlementItem(after)) as never,
    ...(before ? { OldImage: marshall(entitlementItem(before)) as never } : {}),
  },
});

const monthly = subscription('acc_1', 499, 'month');
const cancelled = { ...monthly, cancel_at_period_end: true };
const expired = { ...cancelled, status: 'expired' as const, cancel_at_period_end: false };
const started = change(10 * HOUR, monthly);
const records = [
  started,
  started, // a retried batch: same stream record, same fact id
  change(11 * HOUR, subscription('acc_2', 4990, 'year')),
  change(12 * HOUR, { ...purchase, status: 'pending' }),
  change(12 * HOUR, purchase, { ...purchase, status: 'pending' }),
  change(33 * HOUR, { ...purchase, status: 'refunded' }, purchase),
  change(34 * HOUR, cancelled, monthly),
  change(44 * HOUR, expired, cancelled),
  // Bought in the iOS app: the same creator's revenue, in a row of its own store.
  change(13 * HOUR, { ...purchase, account_id: 'acc_4', content_id: 'ep_y', source: 'apple' }),
];

const run = async (name: string): Promise<Row[]> =>
  (await runMetrics(dir, { fromMs: DAY1, toMs: DAY1 + 48 * HOUR, grain: 'day' }, [name])).get(name)!;

beforeAll(async () => {
  useSink(fileSink(() => dir));
  const now = new Date(DAY1 + 47 * HOUR);
  await exportTitles(undefined, { entity: 'creator', id: 'cr_pay', name: 'Maya Pays' }, now);
  for (const record of records) await exportPaymentFacts(record, now);
});
afterAll(() => {
  useSink(undefined);
  rmSync(dir, { recursive: true, force: true });
});

describe('payment facts and the payment metrics', () => {
  it('makes one fact per money event, signed, in minor units, naming the account by its pseudonym', async () => {
    const now = new Date(DAY1 + 47 * HOUR);
    const facts = (await Promise.all(records.slice(1).map((r) => paymentFactsOf(r, now)))).flat();
    // The account is its keyed pseudonym, the one its player events carry (docs/accounts.md
    // "Analytics"): never the id, and the same value for the same account.
    const [ak1, ak2, ak3, ak4] = await Promise.all(
      ['acc_1', 'acc_2', 'acc_3', 'acc_4'].map((a) => accountKeyOf(a)),
    );
    expect(ak1).toMatch(/^ak_[A-Za-z0-9_-]{32}$/);
    expect(facts.map((f) => [f.type, f.account_id, f.amount, f.platform_fee, f.net])).toEqual([
      ['subscription.started', ak1, 499, 50, 449],
      ['subscription.started', ak2, 4990, 499, 4491],
      ['purchase.completed', ak3, 299, 30, 269],
      ['purchase.refunded', ak3, -299, -30, -269],
      ['subscription.cancelled', ak1, 0, 0, 0],
      ['subscription.expired', ak1, 0, 0, 0],
      ['purchase.completed', ak4, 299, 30, 269],
    ]);
    expect(JSON.stringify(facts)).not.toMatch(/acc_\d/);
    expect(facts.map((f) => f.source)).toEqual([...Array(6).fill('stripe'), 'apple']);
    expect(facts[1]).toMatchObject({
      family: 'payment',
      monthly_amount: 4990 / 12,
      occurred_at: at(11 * HOUR),
    });
    expect((await paymentFactsOf(started, now))[0]!.event_id).toBe(
      (await paymentFactsOf(started, now))[0]!.event_id,
    );
  });

  it('revenue per creator and store per day: payments less refunds, with fee and net', async () => {
    expect(await run('revenue')).toEqual([
      {
        bucket_ms: DAY1,
        dimension: 'Maya Pays',
        store: 'apple',
        revenue: 2.99,
        platform_fee: 0.3,
        net: 2.69,
      },
      {
        bucket_ms: DAY1,
        dimension: 'Maya Pays',
        store: 'stripe',
        revenue: 57.88,
        platform_fee: 5.79,
        net: 52.09,
      },
      {
        bucket_ms: DAY1 + 24 * HOUR,
        dimension: 'Maya Pays',
        store: 'stripe',
        revenue: -2.99,
        platform_fee: -0.3,
        net: -2.69,
      },
    ]);
  });

  it('the player metrics answer no rows, not an error, over payments without player events', async () => {
    // What a local platform holds once a demo viewer has paid and nobody has played anything:
    // `npm run analytics -- report` runs every metric over it (docs/analytics.md).
    expect(await run('startup_time')).toEqual([]);
    expect(await run('views')).toEqual([]);
  });

  it('MRR per creator at the end of each day: a yearly plan counts price / 12', async () => {
    expect(await run('mrr')).toEqual([
      { bucket_ms: DAY1, dimension: 'Maya Pays', mrr: 9.15, subscribers: 2 },
      { bucket_ms: DAY1 + 24 * HOUR, dimension: 'Maya Pays', mrr: 4.16, subscribers: 1 },
    ]);
  });

  it('new and churned subscribers per creator per day (the replayed start counted once)', async () => {
    expect(await run('new_subscribers')).toEqual([
      { bucket_ms: DAY1, dimension: 'Maya Pays', new_subscribers: 2 },
    ]);
    expect(await run('churned_subscribers')).toEqual([
      { bucket_ms: DAY1 + 24 * HOUR, dimension: 'Maya Pays', churned_subscribers: 1 },
    ]);
  });
});
