import { GetCommand, UpdateCommand } from '../db/document.ts';
import { db } from '../db/client.ts';
import { queryAll } from '../db/query.ts';
import { recordOf } from '../db/record.ts';
import { tableName } from '../db/table.ts';
import { putIfAbsent, writeIf } from '../db/transaction.ts';
import { ConflictError } from '../errors/errors.ts';

/**
 * A creator's side of payments (docs/payments.md); this module owns the keys:
 * - payouts: PK `CREATOR#<creator>`, SK `PAYOUTS`: the Stripe Connect Express account (created
 *   once, a conditional write), whether it may take charges and receive payouts, and the Stripe
 *   Price of the creator's plan;
 * - earnings: PK `CREATOR#<creator>`, SK `EARNING#<charge or invoice id>`: one per paid charge,
 *   gross, the platform fee and net, in minor units of `currency` (written once per id);
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

/** Records one earning, once per source id (a replayed event writes nothing new). */
export const recordEarning = async (earning: Earning): Promise<boolean> =>
  putIfAbsent({ ...earningKey(earning.creator_id, earning.source_id), entity: 'earning', ...earning });

/**
 * What a purchase's refunds and disputes took back from its earning, as the charge says now: one
 * item per charge (`EARNING#<charge>#reversal`, negative gross, fee and net in proportion), set to
 * the charge's current state (a won dispute brings it back to 0), and only by a newer observation
 * than the one it holds, so a slow, older read never overwrites a newer one.
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
  // An older observation than the one held writes nothing (the condition fails: not an error).
  await writeIf({
    Put: {
      Item: {
        ...earningKey(reversal.creator_id, reversal.source_id),
        entity: 'earning',
        ...reversal,
        observed_at: observedAt.getTime(),
      },
      ConditionExpression: 'attribute_not_exists(PK) OR observed_at < :at',
      ExpressionAttributeValues: { ':at': observedAt.getTime() },
    },
  });
};

/** Every earning of a creator (reversals included, negative). */
export const earningsOf = async (creatorId: string): Promise<Earning[]> =>
  (
    await queryAll({
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': `CREATOR#${creatorId}`, ':prefix': 'EARNING#' },
    })
  ).map((item) => recordOf<Earning>(item));

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
