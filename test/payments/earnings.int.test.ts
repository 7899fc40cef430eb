import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { DeleteCommand, UpdateCommand } from '../../shared/db/document.ts';
import { db } from '../../shared/db/client.ts';
import { tableName } from '../../shared/db/table.ts';
import {
  type Earning,
  earningsOf,
  recordEarning,
  recordReversal,
  repairEarningMonths,
} from '../../shared/payments/payout-repository.ts';
import { itemsReadOf, type TestApi, testApi } from '../support/api.ts';
import { earningTotals } from '../support/payments.ts';
import { studioCreator } from '../support/studio.ts';

/**
 * A creator's earnings as `GET /studio/payouts` shows them (shared/payments/payouts-overview.ts)
 * and the monthly totals behind it (shared/payments/payout-repository.ts, docs/payments.md
 * "Earnings"): the totals move with every earning and reversal, in the same transaction, and
 * always equal the sum of the earnings; the answer reads the totals, not the payments.
 */

let api: TestApi;
beforeAll(async () => {
  api = await testApi();
});

/** A 4.99 subscription invoice paid at `paidAt` (10% fee), as `invoice.paid` records it. */
const invoice = (creatorId: string, paidAt: string, currency = 'usd'): Earning => ({
  creator_id: creatorId,
  source_id: `in_${randomUUID()}`,
  kind: 'subscription',
  currency,
  gross: 499,
  platform_fee: 50,
  net: 449,
  paid_at: paidAt,
});

const stored = async (creatorId: string) => (await earningTotals(creatorId)).stored;
const expected = async (creatorId: string) => (await earningTotals(creatorId)).fromEarnings;

describe('GET /studio/payouts', () => {
  it('sums in minor units: seven months of 4.99 are 34.93, not 34.93000000000001', async () => {
    const { token, creatorId } = await studioCreator(api);
    for (let month = 1; month <= 7; month++)
      await recordEarning(invoice(creatorId, `2026-0${month}-15T10:00:00.000Z`));
    const res = await api.get('/studio/payouts', { token });
    expect(res.status).toBe(200);
    expect(res.body.data.earnings).toMatchObject({ gross: 34.93, platform_fee: 3.5, net: 31.43 });
    expect(res.body.data.earnings.per_currency).toEqual([
      { currency: 'usd', gross: 34.93, platform_fee: 3.5, net: 31.43 },
    ]);
    expect(res.body.data.earnings.per_month).toHaveLength(7);
    expect(res.body.data.earnings.per_month[0]).toEqual({
      month: '2026-07',
      currency: 'usd',
      gross: 4.99,
      platform_fee: 0.5,
      net: 4.49,
    });
  });

  it('totals each currency apart: a creator paid in dollars and in euros reads each', async () => {
    const { token, creatorId } = await studioCreator(api);
    await recordEarning(invoice(creatorId, '2026-04-10T10:00:00.000Z'));
    await recordEarning(invoice(creatorId, '2026-05-10T10:00:00.000Z', 'eur'));
    await recordEarning(invoice(creatorId, '2026-05-11T10:00:00.000Z', 'eur'));
    const res = await api.get('/studio/payouts', { token });
    expect(res.status).toBe(200);
    expect(res.body.data.earnings.per_currency).toEqual([
      { currency: 'eur', gross: 9.98, platform_fee: 1, net: 8.98 },
      { currency: 'usd', gross: 4.99, platform_fee: 0.5, net: 4.49 },
    ]);
    expect(
      res.body.data.earnings.per_month.map((m: { month: string; currency: string }) => m.month + m.currency),
    ).toEqual(['2026-05eur', '2026-04usd']);
  });

  it('reads the monthly totals, not every payment: 300 payments in a month are one item read', async () => {
    const { token, creatorId } = await studioCreator(api);
    const paid = Array.from({ length: 300 }, (_, i) =>
      invoice(creatorId, `2026-03-${String(1 + (i % 28)).padStart(2, '0')}T12:00:00.000Z`),
    );
    // In parallel, 20 at a time: concurrent transactions on one month's totals conflict and retry.
    for (let i = 0; i < paid.length; i += 20) await Promise.all(paid.slice(i, i + 20).map(recordEarning));
    const res = await api.get('/studio/payouts', { token });
    expect(res.status).toBe(200);
    expect(res.body.data.earnings.per_month).toEqual([
      { month: '2026-03', currency: 'usd', gross: 1497, platform_fee: 150, net: 1347 },
    ]);
    const earningsRead = itemsReadOf(res.headers.get('apigw-requestid')).filter((r) =>
      r.endsWith(':earning'),
    );
    expect(earningsRead).toEqual([]);
    expect(itemsReadOf(res.headers.get('apigw-requestid'))).toContain('QueryCommand:earning_month');
  });
});

describe('the monthly totals (EARNINGS_MONTH#)', () => {
  it('count an earning once, however often it is recorded, and in its own currency', async () => {
    const creatorId = `cr_${randomUUID()}`;
    const one = invoice(creatorId, '2026-05-02T00:00:00.000Z');
    const results = await Promise.all([recordEarning(one), recordEarning(one), recordEarning(one)]);
    expect(results.filter(Boolean)).toHaveLength(1);
    await recordEarning(invoice(creatorId, '2026-05-03T00:00:00.000Z', 'eur'));
    expect(await stored(creatorId)).toEqual([
      { month: '2026-05', currency: 'eur', gross: 499, platform_fee: 50, net: 449 },
      { month: '2026-05', currency: 'usd', gross: 499, platform_fee: 50, net: 449 },
    ]);
  });

  it('follow a reversal to the month it was last observed in, and ignore an older observation', async () => {
    const creatorId = `cr_${randomUUID()}`;
    const purchase = { ...invoice(creatorId, '2026-01-20T00:00:00.000Z'), kind: 'purchase' as const };
    await recordEarning(purchase);
    // Refunded in part (2.00) in February, then a newer read in March finds 4.99 taken back.
    await recordReversal(purchase, 200, new Date('2026-02-10T00:00:00.000Z'));
    expect(await stored(creatorId)).toEqual(await expected(creatorId));
    expect((await stored(creatorId)).find((m) => m.month === '2026-02')).toMatchObject({
      gross: -200,
      platform_fee: -20,
    });
    await recordReversal(purchase, 499, new Date('2026-03-05T00:00:00.000Z'));
    // A slow, older read arrives last: nothing moves.
    await recordReversal(purchase, 0, new Date('2026-02-11T00:00:00.000Z'));
    expect(await stored(creatorId)).toEqual([
      { month: '2026-01', currency: 'usd', gross: 499, platform_fee: 50, net: 449 },
      { month: '2026-03', currency: 'usd', gross: -499, platform_fee: -50, net: -449 },
    ]);
    expect(await stored(creatorId)).toEqual(await expected(creatorId));
    // A dispute won in April gives it back: the reversal is 0, in no month.
    await recordReversal(purchase, 0, new Date('2026-04-01T00:00:00.000Z'));
    expect(await stored(creatorId)).toEqual([
      { month: '2026-01', currency: 'usd', gross: 499, platform_fee: 50, net: 449 },
    ]);
  });

  it('stay equal to the earnings under concurrent reversals of one charge', async () => {
    const creatorId = `cr_${randomUUID()}`;
    const purchase = { ...invoice(creatorId, '2026-06-01T00:00:00.000Z'), kind: 'purchase' as const };
    await recordEarning(purchase);
    const reads = Array.from({ length: 8 }, (_, i) => ({
      takenBack: (i * 61) % 500,
      at: new Date(Date.UTC(2026, 6 + (i % 3), 1 + i)),
    }));
    await Promise.all(reads.map((r) => recordReversal(purchase, r.takenBack, r.at)));
    expect(await stored(creatorId)).toEqual(await expected(creatorId));
    const latest = reads.reduce((a, b) => (b.at > a.at ? b : a));
    const [reversal] = (await earningsOf(creatorId, { consistent: true })).filter((e) =>
      e.source_id.endsWith('#reversal'),
    );
    expect(reversal?.gross).toBe(-latest.takenBack);
  });

  it('are repaired from the earnings (the rebuild backfills them), never over a concurrent earning', async () => {
    const creatorId = `cr_${randomUUID()}`;
    await recordEarning(invoice(creatorId, '2026-08-01T00:00:00.000Z'));
    await recordEarning(invoice(creatorId, '2026-09-01T00:00:00.000Z'));
    // As before the totals existed: August's missing; September's wrong; a stray month.
    const key = (month: string) => ({ PK: `CREATOR#${creatorId}`, SK: `EARNINGS_MONTH#${month}#usd` });
    await db.send(new DeleteCommand({ TableName: tableName(), Key: key('2026-08') }));
    await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key('2026-09'),
        UpdateExpression: 'SET gross = :g',
        ExpressionAttributeValues: { ':g': 1 },
      }),
    );
    await recordEarning(invoice(creatorId, '2026-10-01T00:00:00.000Z'));
    await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key('2026-10'),
        UpdateExpression: 'ADD gross :g',
        ExpressionAttributeValues: { ':g': 5 },
      }),
    );
    expect(await stored(creatorId)).not.toEqual(await expected(creatorId));
    expect(await repairEarningMonths(creatorId)).toBe(3);
    expect(await stored(creatorId)).toEqual(await expected(creatorId));
    expect(await repairEarningMonths(creatorId)).toBe(0);
    // Repairs racing new earnings of the same month: none overwrites an earning recorded meanwhile.
    for (let round = 0; round < 3; round++) {
      await db.send(new DeleteCommand({ TableName: tableName(), Key: key('2026-10') }));
      await Promise.all([
        repairEarningMonths(creatorId),
        ...Array.from({ length: 6 }, () => recordEarning(invoice(creatorId, '2026-10-02T00:00:00.000Z'))),
        repairEarningMonths(creatorId),
      ]);
      await repairEarningMonths(creatorId);
      expect(await stored(creatorId)).toEqual(await expected(creatorId));
    }
  });
});
