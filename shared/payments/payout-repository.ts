import { backoff } from '../backoff.ts';
import { GetCommand, UpdateCommand } from '../db/document.ts';
import { db } from '../db/client.ts';
import { queryAll } from '../db/query.ts';
import { recordOf } from '../db/record.ts';
import { tableName } from '../db/table.ts';
import {
  putIfAbsent,
  type TransactOperation,
  transact,
  transactRetryingConflicts,
  writeIf,
  writtenIf,
} from '../db/transaction.ts';
import { updateOf, withCondition } from '../db/update.ts';
import { ConflictError } from '../errors/errors.ts';

/**
 * A creator's side of payments (docs/payments.md); this module owns the keys:
 * - payouts: PK `CREATOR#<creator>`, SK `PAYOUTS`: the Stripe Connect Express account (created
 *   once, a conditional write), whether it may take charges and receive payouts, and the Stripe
 *   Price of the creator's plan;
 * - earnings: PK `CREATOR#<creator>`, SK `EARNING#<charge or invoice id>`: one per paid charge,
 *   gross, the platform fee and net, in minor units of `currency` (written once per id);
 * - a month's totals: PK `CREATOR#<creator>`, SK `EARNINGS_MONTH#<yyyy-mm>#<currency>`: the sums
 *   of that month's earnings in that currency, moved in the same transaction as each earning and
 *   reversal, so `GET /studio/payouts` reads a few items per year, never every payment;
 * - a detached account: PK `STRIPE_ACCOUNT#<Stripe account id>`, SK `DETACHED`: a deleted
 *   creator's Connect account, which the platform no longer charges to (no creator id: the
 *   creator is gone; docs/accounts.md "Deletion").
 */
export interface PayoutAccount {
  creator_id: string;
  stripe_account_id: string;
  charges_enabled: boolean;
  payouts_enabled: boolean;
  /** The plan set through `PUT /studio/plan` (its Stripe Price); without one, the catalogue's plan is sold. */
  plan?: PaidPlan;
  updated_at: string;
}

export interface PaidPlan {
  price: number;
  currency: string;
  interval: 'month' | 'year';
  price_id: string;
}

export interface Earning {
  creator_id: string;
  /** The charge (purchase) or invoice (subscription) it comes from. */
  source_id: string;
  kind: 'subscription' | 'purchase';
  currency: string;
  gross: number;
  platform_fee: number;
  net: number;
  paid_at: string;
}

const payoutsKey = (creatorId: string) => ({ PK: `CREATOR#${creatorId}`, SK: 'PAYOUTS' });
const earningKey = (creatorId: string, sourceId: string) => ({
  PK: `CREATOR#${creatorId}`,
  SK: `EARNING#${sourceId}`,
});

export const getPayoutAccount = async (creatorId: string): Promise<PayoutAccount | undefined> => {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: payoutsKey(creatorId) }));
  return Item ? recordOf<PayoutAccount>(Item) : undefined;
};

/** The item of a payout account (the seed writes the demo creators' through this). */
export const payoutAccountItem = (account: PayoutAccount) => ({
  ...payoutsKey(account.creator_id),
  entity: 'payout_account',
  ...account,
});

/**
 * Records the creator's connected account unless one is recorded; answers the recorded one, so
 * two parallel onboarding requests end with one account.
 */
export const recordPayoutAccount = async (account: PayoutAccount): Promise<PayoutAccount> => {
  if (await putIfAbsent(payoutAccountItem(account))) return account;
  return (await getPayoutAccount(account.creator_id)) ?? account;
};

/** Sets what Stripe reports of the account's capabilities (`account.updated`); false when unknown. */
export const setCapabilities = async (
  creatorId: string,
  stripeAccountId: string,
  capabilities: { charges_enabled: boolean; payouts_enabled: boolean },
  now: Date,
): Promise<boolean> =>
  (
    await writeIf({
      Update: {
        Key: payoutsKey(creatorId),
        UpdateExpression: 'SET charges_enabled = :charges, payouts_enabled = :payouts, updated_at = :at',
        ConditionExpression: 'stripe_account_id = :account',
        ExpressionAttributeValues: {
          ':charges': capabilities.charges_enabled,
          ':payouts': capabilities.payouts_enabled,
          ':at': now.toISOString(),
          ':account': stripeAccountId,
        },
      },
    })
  ).written;

/** Records the creator's plan with its Stripe Price (the account must exist). */
export const setPaidPlan = async (creatorId: string, plan: PaidPlan, now: Date): Promise<void> => {
  await db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: payoutsKey(creatorId),
      UpdateExpression: 'SET #plan = :plan, updated_at = :at',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeNames: { '#plan': 'plan' },
      ExpressionAttributeValues: { ':plan': plan, ':at': now.toISOString() },
    }),
  );
};

/** A month's earnings in one currency, in minor units (what `GET /studio/payouts` shows per month). */
export interface EarningMonth {
  month: string;
  currency: string;
  gross: number;
  platform_fee: number;
  net: number;
}

type Amounts = Pick<Earning, 'gross' | 'platform_fee' | 'net'>;

const amountsOf = ({ gross, platform_fee, net }: Amounts): Amounts => ({ gross, platform_fee, net });

const monthKey = (creatorId: string, month: string, currency: string) => ({
  PK: `CREATOR#${creatorId}`,
  SK: `EARNINGS_MONTH#${month}#${currency}`,
});

/** The totals item an earning counts in: the month (UTC) it was paid, and its currency. */
const monthOf = (earning: Earning) => ({ month: earning.paid_at.slice(0, 7), currency: earning.currency });

/** Moves a month's totals by `amounts` (created at the first earning of the month). */
const addToMonthOperation = (
  creatorId: string,
  { month, currency }: { month: string; currency: string },
  amounts: Amounts,
): TransactOperation => ({
  Update: {
    TableName: tableName(),
    Key: monthKey(creatorId, month, currency),
    ...updateOf({
      set: { entity: 'earning_month', creator_id: creatorId, month, currency },
      add: { ...amounts, version: 1 },
    }),
  },
});

const earningItem = (earning: Earning, extra: Record<string, unknown> = {}) => ({
  ...earningKey(earning.creator_id, earning.source_id),
  entity: 'earning',
  ...earning,
  ...extra,
});

/** Records one earning, once per source id (a replayed event writes nothing new), with its month's totals. */
export const recordEarning = (earning: Earning): Promise<boolean> =>
  transactRetryingConflicts([
    {
      Put: {
        TableName: tableName(),
        Item: earningItem(earning),
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
    addToMonthOperation(earning.creator_id, monthOf(earning), amountsOf(earning)),
  ]);

/**
 * Does the stored earning of `earning`'s source, with its reversal, differ from `earning` with
 * `takenBack` taken back (what the charge's refunds and disputes say now)? Missing counts as
 * differing. Read consistently (the reconcile's check before it repairs).
 */
export const earningOutOfStep = async (earning: Earning, takenBack: number): Promise<boolean> => {
  const get = (sourceId: string) =>
    db.send(
      new GetCommand({
        TableName: tableName(),
        Key: earningKey(earning.creator_id, sourceId),
        ConsistentRead: true,
      }),
    );
  const [{ Item: held }, { Item: reversal }] = await Promise.all([
    get(earning.source_id),
    get(`${earning.source_id}#reversal`),
  ]);
  return !held || Number(held.gross) !== earning.gross || -Number(reversal?.gross ?? 0) !== takenBack;
};

const ATTEMPTS = 6;

/**
 * What a purchase's refunds and disputes took back from its earning, as the charge says now: one
 * item per charge (`EARNING#<charge>#reversal`, negative gross, fee and net in proportion), set to
 * the charge's current state (a won dispute brings it back to 0), and only by a newer observation
 * than the one it holds, so a slow, older read never overwrites a newer one. The months' totals
 * move by the difference in the same transaction: the reversal counts in the month it was last
 * observed, so a later observation takes the old amounts off the old month and adds the new ones
 * to its own. The item is read, then written on condition it is still the one read; a concurrent
 * writer makes it read again.
 */
export const recordReversal = async (
  earning: Earning,
  takenBack: number,
  observedAt: Date,
): Promise<void> => {
  const share = earning.gross > 0 ? takenBack / earning.gross : 0;
  const fee = Math.round(earning.platform_fee * share);
  const reversal: Earning = {
    ...earning,
    source_id: `${earning.source_id}#reversal`,
    gross: -takenBack,
    platform_fee: -fee,
    net: -(takenBack - fee),
    paid_at: observedAt.toISOString(),
  };
  const key = earningKey(reversal.creator_id, reversal.source_id);
  for (let attempt = 1; ; attempt++) {
    const { Item: held } = await db.send(
      new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }),
    );
    // An older (or the same) observation than the one held writes nothing.
    if (held && Number(held.observed_at) >= observedAt.getTime()) return;
    const before = held ? recordOf<Earning>(held) : undefined;
    const outcome = await transact([
      {
        Put: {
          TableName: tableName(),
          Item: earningItem(reversal, { observed_at: observedAt.getTime() }),
          ...(held
            ? {
                ConditionExpression: 'observed_at = :held',
                ExpressionAttributeValues: { ':held': held.observed_at },
              }
            : { ConditionExpression: 'attribute_not_exists(PK)' }),
        },
      },
      ...monthMoves(reversal.creator_id, before, reversal),
    ]);
    if (outcome.written) return;
    if (attempt >= ATTEMPTS)
      throw new Error(`The reversal ${reversal.source_id} kept changing under ${ATTEMPTS} attempts`);
    await backoff(attempt, 20);
  }
};

/** The month moves of an earning item going from `before` to `after` (one operation per month). */
const monthMoves = (creatorId: string, before: Earning | undefined, after: Earning): TransactOperation[] =>
  monthTotals(before ? [negated(before), after] : [after])
    .filter(hasMoney)
    .map((m) => addToMonthOperation(creatorId, m, amountsOf(m)));

const negated = (e: Earning): Earning => ({
  ...e,
  gross: -e.gross,
  platform_fee: -e.platform_fee,
  net: -e.net,
});

/** Do `amounts` hold any money (a month, a move)? A month at 0 is shown and stored as none. */
export const hasMoney = (a: Amounts): boolean => a.gross !== 0 || a.platform_fee !== 0 || a.net !== 0;

/** The items of a creator's partition whose sort key starts with `prefix`. */
const creatorItems = async (creatorId: string, prefix: string, consistent: boolean | undefined) =>
  queryAll({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    ExpressionAttributeValues: { ':pk': `CREATOR#${creatorId}`, ':prefix': prefix },
    ...(consistent ? { ConsistentRead: true } : {}),
  });

/** Every earning of a creator (reversals included, negative). */
export const earningsOf = async (creatorId: string, options: { consistent?: boolean } = {}) =>
  (await creatorItems(creatorId, 'EARNING#', options.consistent)).map((item) => recordOf<Earning>(item));

type StoredMonth = EarningMonth & { version: number };

/** A creator's monthly totals, every month and currency (a few items a year). */
export const earningMonthsOf = async (creatorId: string, options: { consistent?: boolean } = {}) =>
  (await creatorItems(creatorId, 'EARNINGS_MONTH#', options.consistent)).map((item) =>
    recordOf<StoredMonth>(item),
  );

/** The monthly totals `earnings` give (what the totals items must hold). */
export const monthTotals = (earnings: readonly Earning[]): EarningMonth[] => {
  const months = new Map<string, EarningMonth>();
  for (const e of earnings) {
    const at = monthOf(e);
    const id = `${at.month}#${at.currency}`;
    const row = months.get(id) ?? { ...at, gross: 0, platform_fee: 0, net: 0 };
    row.gross += e.gross;
    row.platform_fee += e.platform_fee;
    row.net += e.net;
    months.set(id, row);
  }
  return [...months.values()];
};

const sameAmounts = (a: Amounts | undefined, b: Amounts | undefined) =>
  (a?.gross ?? 0) === (b?.gross ?? 0) &&
  (a?.platform_fee ?? 0) === (b?.platform_fee ?? 0) &&
  (a?.net ?? 0) === (b?.net ?? 0);

/**
 * The months whose stored totals differ from what `earnings` give (missing, different, or left
 * over with no earning): a month at 0 with no item is not a difference.
 */
export const differingMonths = (
  earnings: readonly Earning[],
  stored: readonly EarningMonth[],
): { month: string; currency: string; want: EarningMonth | undefined }[] => {
  const want = new Map(monthTotals(earnings).map((m) => [`${m.month}#${m.currency}`, m]));
  const held = new Map(stored.map((m) => [`${m.month}#${m.currency}`, m]));
  return [...new Set([...want.keys(), ...held.keys()])]
    .filter((id) => !sameAmounts(want.get(id), held.get(id)))
    .map((id) => {
      const [month, currency] = id.split('#') as [string, string];
      return { month, currency, want: want.get(id) };
    });
};

/**
 * Sets a creator's monthly totals to what its earnings give (the rebuild's repair, and the
 * backfill of earnings recorded before the totals existed). The totals are read first, then the
 * earnings, both strongly consistent, and each differing month is written on condition its
 * `version` is still the one read: an earning recorded meanwhile moves the version (it is one
 * transaction with its month), so the repair never overwrites it; run again, it finds the rest.
 * Returns how many months it set.
 */
export const repairEarningMonths = async (creatorId: string): Promise<number> => {
  const stored = await earningMonthsOf(creatorId, { consistent: true });
  const earnings = await earningsOf(creatorId, { consistent: true });
  const versions = new Map(stored.map((m) => [`${m.month}#${m.currency}`, m.version]));
  let set = 0;
  for (const { month, currency, want } of differingMonths(earnings, stored)) {
    const version = versions.get(`${month}#${currency}`);
    const amounts = want ?? { gross: 0, platform_fee: 0, net: 0 };
    const written = await writtenIf({
      Update: {
        Key: monthKey(creatorId, month, currency),
        ...withCondition(
          updateOf({
            set: {
              entity: 'earning_month',
              creator_id: creatorId,
              month,
              currency,
              gross: amounts.gross,
              platform_fee: amounts.platform_fee,
              net: amounts.net,
            },
            add: { version: 1 },
          }),
          version === undefined
            ? { expression: 'attribute_not_exists(PK)' }
            : { expression: 'version = :c0', values: { ':c0': version } },
        ),
      },
    });
    if (written) set++;
  }
  return set;
};

/** Refuses a paid price until the creator's account may take charges (409 with the way out). */
export const requireChargesEnabled = async (creatorId: string): Promise<void> => {
  const payouts = await getPayoutAccount(creatorId);
  if (!payouts?.charges_enabled)
    throw new ConflictError(
      'Connect payouts first: paid prices need a Stripe account that can take charges (POST /studio/payouts/onboarding)',
    );
};

/** Records that the platform detached a deleted creator's Connect account (idempotent: the first instant stays). */
export const recordDetachment = async (stripeAccountId: string, now: Date): Promise<void> => {
  // The first instant stays: a second detachment writes nothing.
  await putIfAbsent({
    PK: `STRIPE_ACCOUNT#${stripeAccountId}`,
    SK: 'DETACHED',
    entity: 'payout_detachment',
    stripe_account_id: stripeAccountId,
    detached_at: now.toISOString(),
  });
};
