import type { Catalog, CreatorRecord } from '../../../shared/catalog/model.ts';
import { type PayoutAccount, payoutAccountItem } from '../../../shared/payments/payout-repository.ts';
import { openConnectAccount } from '../../../shared/payments/payouts.ts';
import { stripeClient } from '../../../shared/payments/stripe-client.ts';
import { accountOf, runPayAction } from './control.ts';
import type { StripeStandIn } from './server.ts';

/**
 * The demo creators' payouts (issue 36: "a demo viewer can buy from the first minute"): every
 * demo creator who sells something gets a Stripe Connect account in the stand-in, opened as
 * `POST /studio/payouts/onboarding` opens one and onboarded as `npm run pay -- onboard` does, so
 * checkouts for their plan and pay-per-view items are destination charges from the start.
 * Called once by the local platform (scripts/local/platform.ts), while DynamoDB Local boots: no
 * webhook endpoint is registered yet, so the payout rows (what `account.updated` would record)
 * are returned for the seed to write with the catalogue.
 */

/** Creators with premium or pay-per-view episodes, or a channel for subscribers, and a paid plan. */
export const sellingCreators = (catalog: Pick<Catalog, 'creators' | 'episodes'>): CreatorRecord[] => {
  const paid = new Set(catalog.episodes.filter((e) => e.access !== 'free').map((e) => e.creator_id));
  return catalog.creators.filter(
    (creator) => creator.plan.price > 0 && (paid.has(creator.id) || creator.channel.requires_subscription),
  );
};

/** Opens and onboards `creators`' connected accounts; answers the payout items to write. */
export const onboardDemoCreators = async (
  standIn: Pick<StripeStandIn, 'endpoint' | 'secretKey' | 'store'>,
  creators: readonly CreatorRecord[],
  now: Date,
): Promise<ReturnType<typeof payoutAccountItem>[]> => {
  const client = stripeClient(standIn.secretKey, standIn.endpoint);
  const accounts = await Promise.all(
    creators.map(async (creator): Promise<PayoutAccount> => {
      const opened = await openConnectAccount(client, creator.id, now);
      runPayAction(standIn.store, 'onboard', opened.stripe_account_id);
      const { charges_enabled, payouts_enabled } = accountOf(standIn.store, opened.stripe_account_id);
      return { ...opened, charges_enabled, payouts_enabled };
    }),
  );
  return accounts.map(payoutAccountItem);
};
