import { createHash } from 'node:crypto';
import type Stripe from 'stripe';
import type { CreatorRecord, EpisodeRecord } from '../catalog/model.ts';
import { requireCreator } from '../creators/creator-repository.ts';
import {
  applyEntitlement,
  entitlementObjects,
  getEntitlement,
  grants,
} from '../entitlements/entitlement-repository.ts';
import { type UserSubscription, userSubscription } from '../entitlements/subscription-view.ts';
import { ConflictError, NotFoundError, ValidationError } from '../errors/errors.ts';
import { clock } from '../clock.ts';
import { setting } from '../config.ts';
import { getEpisode } from '../shows/show-repository.ts';
import { getCustomerId, recordCustomer } from './billing-repository.ts';
import { getPayoutAccount, type PayoutAccount } from './payout-repository.ts';
import { applicationFeePercent, graceDays } from './settings.ts';
import { stripe } from './stripe-client.ts';
import { BILLING, subscriptionEntitlement } from './stripe-sync.ts';

/**
 * Buying (docs/payments.md, "A purchase"): a Stripe Checkout Session for a creator's plan (mode
 * `subscription`) or one pay-per-view item (mode `payment`). Nothing is granted here: the
 * entitlement is written when Stripe's webhook says the payment happened (stripe-sync.ts).
 */
export interface Checkout {
  checkout_id: string;
  url: string;
  expires_at: string;
  /** In major units of `currency` (as the interface shows prices). */
  amount: number;
  currency: string;
}

export type CheckoutTarget = { creator_id: string } | { content_id: string };

/** A retried request within this window gets the same session (Stripe keeps idempotency keys 24 h). */
const WINDOW_MS = 30 * 60_000;
/** A session expires an hour after it was made (Stripe's minimum is 30 minutes). */
const SESSION_SECONDS = 60 * 60;

const minor = (amount: number) => Math.round(amount * 100);
const major = (amount: number) => amount / 100;

/** The 30-minute idempotency window `now` falls in (its index since the epoch). */
const windowOf = (now: Date): number => Math.floor(now.getTime() / WINDOW_MS);

/**
 * When a session made at `now` expires: an hour after the end of its idempotency window, so every
 * request of one window sends Stripe the same parameters (a reused idempotency key with different
 * parameters is an error at Stripe) and the session lives 60 to 90 minutes (Stripe: 30 min to 24 h).
 */
export const sessionExpiry = (now: Date): number =>
  ((windowOf(now) + 1) * WINDOW_MS) / 1000 + SESSION_SECONDS;

/**
 * The idempotency key of a checkout: the same account, item, price, entitlement state and
 * 30-minute window give the same key, so a retried (or doubled, or parallel) request answers the
 * same session, and one session is one payment. The entitlement's state (its `observed_at`, none
 * before the first purchase) is part of it: an item refunded, or a subscription ended, within the
 * window of its paid checkout is bought with a new session, not answered the paid one (which
 * cannot be paid again).
 */
export const checkoutKey = (parts: readonly (string | number)[], now: Date): string =>
  `checkout-${createHash('sha256')
    .update([...parts, windowOf(now)].join('|'))
    .digest('hex')
    .slice(0, 40)}`;

/** The account's Stripe customer: made once (the deterministic key makes a parallel first one the same). */
const customerOf = async (client: Stripe, accountId: string, now: Date): Promise<string> => {
  const known = await getCustomerId(accountId);
  if (known) return known;
  const customer = await client.customers.create(
    { metadata: { account_id: accountId } },
    { idempotencyKey: `customer-${accountId}` },
  );
  return recordCustomer(accountId, customer.id, now);
};

/**
 * Every paid charge is a destination charge with the platform's fee (docs/payments.md): a creator
 * whose connected account may not take charges sells nothing (422 on `field`), or the platform
 * would hold money it has no way to pay out.
 */
const destinationOf = (payouts: PayoutAccount | undefined, field: 'creator_id' | 'content_id'): string => {
  if (!payouts?.charges_enabled)
    throw new ValidationError([
      {
        field,
        message: 'This creator cannot take payments yet (their Stripe payout account is not set up)',
      },
    ]);
  return payouts.stripe_account_id;
};

/** The plan on sale: the one set through `PUT /studio/plan`, else the catalogue's. */
const paidPlan = (creator: CreatorRecord, payouts: PayoutAccount | undefined) => {
  const plan = payouts?.plan ?? creator.plan;
  if (!(plan.price > 0))
    throw new ValidationError([{ field: 'creator_id', message: 'This creator has no paid plan' }]);
  return plan;
};

const sellable = (episode: EpisodeRecord) => {
  if (episode.access !== 'ppv' || episode.price === null || !(episode.price > 0) || !episode.currency)
    throw new ValidationError([
      {
        field: 'content_id',
        message:
          episode.access === 'free'
            ? 'This item is free'
            : 'This item is not sold on its own (premium items come with a subscription)',
      },
    ]);
  return { price: episode.price, currency: episode.currency };
};

const answer = (session: Stripe.Checkout.Session, amount: number, currency: string): Checkout => ({
  checkout_id: session.id,
  url: session.url ?? '',
  expires_at: new Date(session.expires_at * 1000).toISOString(),
  amount,
  currency,
});

/**
 * A creator's account id is its creator id: a creator buying their own plan or item would pay
 * themself through Stripe (fees, an inflated subscriber count), so it is refused (422 on `field`).
 */
const notOwn = (accountId: string, creatorId: string, field: 'creator_id' | 'content_id') => {
  if (accountId === creatorId)
    throw new ValidationError([
      {
        field,
        message:
          field === 'creator_id'
            ? 'This is your own channel: you cannot subscribe to it'
            : 'This is your own item: you cannot buy it',
      },
    ]);
};

const subscriptionCheckout = async (accountId: string, creatorId: string, now: Date): Promise<Checkout> => {
  const creator = await requireCreator(creatorId);
  notOwn(accountId, creator.id, 'creator_id');
  const [current, payouts] = await Promise.all([
    getEntitlement(accountId, { kind: 'subscription', creatorId: creator.id }),
    getPayoutAccount(creator.id),
  ]);
  const plan = paidPlan(creator, payouts);
  if (grants(current, now)) throw new ConflictError('You already subscribe to this creator');
  const destination = destinationOf(payouts, 'creator_id');
  const client = await stripe();
  const customer = await customerOf(client, accountId, now);
  const metadata = { account_id: accountId, creator_id: creator.id };
  const session = await client.checkout.sessions.create(
    {
      mode: 'subscription',
      customer,
      client_reference_id: accountId,
      metadata,
      line_items: [
        {
          quantity: 1,
          ...(payouts?.plan
            ? { price: payouts.plan.price_id }
            : {
                price_data: {
                  currency: plan.currency.toLowerCase(),
                  unit_amount: minor(plan.price),
                  recurring: { interval: plan.interval },
                  product_data: { name: `${creator.name}: subscription` },
                },
              }),
        },
      ],
      subscription_data: {
        metadata,
        application_fee_percent: applicationFeePercent(),
        transfer_data: { destination },
      },
      success_url: `${setting('SITE_URL')}/creators/${creator.slug}?checkout=success`,
      cancel_url: `${setting('SITE_URL')}/creators/${creator.slug}?checkout=cancelled`,
      expires_at: sessionExpiry(now),
    },
    {
      idempotencyKey: checkoutKey(
        [
          accountId,
          'sub',
          creator.id,
          plan.price,
          plan.currency,
          plan.interval,
          payouts?.plan?.price_id ?? '',
          current?.observed_at ?? '',
        ],
        now,
      ),
    },
  );
  return answer(session, plan.price, plan.currency);
};

const purchaseCheckout = async (accountId: string, contentId: string, now: Date): Promise<Checkout> => {
  const episode = await getEpisode(contentId);
  if (!episode) throw new NotFoundError('Content not found');
  notOwn(accountId, episode.creator_id, 'content_id');
  const { price, currency } = sellable(episode);
  const held = await getEntitlement(accountId, {
    kind: 'purchase',
    creatorId: episode.creator_id,
    contentId: episode.id,
  });
  if (grants(held, now)) throw new ConflictError('You already own this item');
  const [client, payouts] = await Promise.all([stripe(), getPayoutAccount(episode.creator_id)]);
  const destination = destinationOf(payouts, 'content_id');
  const customer = await customerOf(client, accountId, now);
  const metadata = { account_id: accountId, creator_id: episode.creator_id, content_id: episode.id };
  const amount = minor(price);
  const session = await client.checkout.sessions.create(
    {
      mode: 'payment',
      customer,
      client_reference_id: accountId,
      metadata,
      line_items: [
        {
          quantity: 1,
          price_data: {
            currency: currency.toLowerCase(),
            unit_amount: amount,
            product_data: { name: episode.title },
          },
        },
      ],
      payment_intent_data: {
        metadata,
        application_fee_amount: Math.round((amount * applicationFeePercent()) / 100),
        transfer_data: { destination },
      },
      success_url: `${setting('SITE_URL')}/watch/${episode.id}?checkout=success`,
      cancel_url: `${setting('SITE_URL')}/watch/${episode.id}?checkout=cancelled`,
      expires_at: sessionExpiry(now),
    },
    {
      idempotencyKey: checkoutKey(
        [accountId, 'ppv', episode.id, price, currency, held?.observed_at ?? ''],
        now,
      ),
    },
  );
  return answer(session, major(amount), currency);
};

/** `POST /checkout` (and `POST /creators/{id}/subscription`): a Checkout Session for the caller. */
export const startCheckout = (accountId: string, target: CheckoutTarget, now: Date): Promise<Checkout> =>
  'creator_id' in target
    ? subscriptionCheckout(accountId, target.creator_id, now)
    : purchaseCheckout(accountId, target.content_id, now);

/** Where a subscription billed by an app store is cancelled, as `renews_in_stores` names it. */
const STORE_NAMES = { apple: 'app_store', google: 'google_play' } as const;

/**
 * `DELETE /creators/{id}/subscription`: asks Stripe to cancel at period end (access holds until
 * `valid_until`); the entitlement changes when Stripe's `customer.subscription.updated` arrives,
 * and here at once from the subscription Stripe answers (the same sync the webhook runs). No API
 * cancels an App Store or Google Play subscription (the user does, in the store): one of those
 * that still renews is named in `renews_in_stores`, so the app can send the user there.
 */
export const cancelSubscription = async (
  accountId: string,
  creatorId: string,
  now: Date,
): Promise<{
  creator_id: string;
  user_subscription: UserSubscription;
  renews_in_stores: (typeof STORE_NAMES)[keyof typeof STORE_NAMES][];
}> => {
  const creator = await requireCreator(creatorId);
  const target = { kind: 'subscription', creatorId: creator.id } as const;
  // Every subscription of the caller's to the creator that still renews, shown or not: a Stripe
  // one shown behind an App Store subscription that reaches further still bills.
  const renewing = (await entitlementObjects(accountId, target)).filter(
    (e) => grants(e, now) && !e.cancel_at_period_end,
  );
  const web = renewing.filter((e) => e.source === 'stripe' && e.provider.subscription_id);
  if (web.length > 0) {
    const client = await stripe();
    for (const e of web) {
      const id = e.provider.subscription_id as string;
      // One that ended at Stripe unseen (its webhooks not yet, or never, delivered) refuses the
      // update (400): its state, read again, is what to apply, not a 500.
      const updated = await client.subscriptions
        .update(id, { cancel_at_period_end: true })
        .catch(async (error: { statusCode?: number }) => {
          if (error.statusCode !== 400) throw error;
          const current = await client.subscriptions.retrieve(id);
          if (BILLING.has(current.status)) throw error;
          return current;
        });
      // Stamped after the update answered: the state it answers was true then, and a reader
      // stamps the instant before its read (SyncContext.now), so one begun before the update
      // (which may have read the old state) loses to this write and one begun after it wins.
      // (An ended one's re-read above is a terminal state: no order can undo it.)
      const record = subscriptionEntitlement(updated, clock.now(), graceDays(), applicationFeePercent());
      if (record) await applyEntitlement(record);
    }
  }
  return {
    creator_id: creator.id,
    user_subscription: userSubscription(await getEntitlement(accountId, target), now),
    renews_in_stores: [
      ...new Set(renewing.flatMap((e) => (e.source === 'stripe' ? [] : [STORE_NAMES[e.source]]))),
    ].sort(),
  };
};

/** `POST /billing/portal`: the Stripe customer portal for the caller (404 before any checkout). */
export const billingPortal = async (accountId: string): Promise<{ url: string }> => {
  const customer = await getCustomerId(accountId);
  if (!customer) throw new NotFoundError('No billing account yet: buy something first');
  const client = await stripe();
  const session = await client.billingPortal.sessions.create({
    customer,
    return_url: `${setting('SITE_URL')}/account`,
  });
  return { url: session.url };
};
