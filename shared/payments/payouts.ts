import { setting } from '../config.ts';
import { requireStudioCreator } from '../creators/studio-creator.ts';
import {
  getPayoutAccount,
  requireChargesEnabled,
  type PayoutAccount,
  recordPayoutAccount,
  setPaidPlan,
} from './payout-repository.ts';
import { type Stripe, stripe } from './stripe-client.ts';

/**
 * Creators get paid (docs/payments.md, "Creators"): a Stripe Connect Express account per creator
 * (made once), onboarding through an Account Link, destination charges with the platform's fee.
 * Capabilities come back through the Connect webhook's `account.updated`.
 */

/**
 * Opens the creator's Stripe Connect Express account (once: the idempotency key is the creator's)
 * and answers its payout record as Stripe reports it; `account.updated` keeps the capabilities
 * current. Also how the local platform opens the demo creators' (scripts/local/stripe/demo.ts).
 */
export const openConnectAccount = async (
  client: Stripe,
  creatorId: string,
  now: Date,
): Promise<PayoutAccount> => {
  const account = await client.accounts.create(
    {
      type: 'express',
      metadata: { creator_id: creatorId },
      capabilities: { card_payments: { requested: true }, transfers: { requested: true } },
    },
    { idempotencyKey: `connect-account-${creatorId}` },
  );
  return {
    creator_id: creatorId,
    stripe_account_id: account.id,
    charges_enabled: account.charges_enabled,
    payouts_enabled: account.payouts_enabled,
    updated_at: now.toISOString(),
  };
};

/** `POST /studio/payouts/onboarding`: the Account Link to Stripe's hosted onboarding. */
export const startOnboarding = async (accountId: string, now: Date): Promise<{ url: string }> => {
  const creator = await requireStudioCreator(accountId);
  const client = await stripe();
  const payouts =
    (await getPayoutAccount(creator.id)) ??
    (await recordPayoutAccount(await openConnectAccount(client, creator.id, now)));
  const site = setting('SITE_URL');
  const link = await client.accountLinks.create({
    account: payouts.stripe_account_id,
    type: 'account_onboarding',
    refresh_url: `${site}/studio/payouts?onboarding=refresh`,
    return_url: `${site}/studio/payouts?onboarding=done`,
  });
  return { url: link.url };
};

/**
 * `PUT /studio/plan`: a new Stripe Price for the creator's subscription; new checkouts use it,
 * existing subscribers keep theirs until they renew on the new one (Stripe subscriptions keep
 * their price). The plan shown on the creator's page is the creator's `plan` (studio profile).
 */
export const setPlan = async (
  accountId: string,
  plan: { price: number; currency: string; interval: 'month' | 'year' },
  now: Date,
) => {
  const creator = await requireStudioCreator(accountId);
  await requireChargesEnabled(creator.id);
  const client = await stripe();
  const price = await client.prices.create(
    {
      currency: plan.currency.toLowerCase(),
      unit_amount: Math.round(plan.price * 100),
      recurring: { interval: plan.interval },
      product_data: { name: `${creator.name}: subscription`, metadata: { creator_id: creator.id } },
      metadata: { creator_id: creator.id },
    },
    {
      idempotencyKey: `plan-${creator.id}-${plan.price}-${plan.currency}-${plan.interval}-${now.toISOString().slice(0, 10)}`,
    },
  );
  const paid = { ...plan, price_id: price.id };
  await setPaidPlan(creator.id, paid, now);
  return paid;
};
