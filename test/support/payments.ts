import { randomUUID } from 'node:crypto';
import type Stripe from 'stripe';
import { connectStripeWebhooks, disconnectStripeWebhooks } from '../../scripts/local/stripe/wiring.ts';
import { issueAccessToken } from '../../shared/identity/access-token.ts';
import { createAccount } from '../../shared/identity/account-repository.ts';
import { newAccount } from '../../shared/identity/onboarding.ts';
import {
  type EarningMonth,
  earningMonthsOf,
  earningsOf,
  hasMoney,
  monthTotals,
} from '../../shared/payments/payout-repository.ts';
import type { TestApi } from './api.ts';
import { waitFor } from './wait.ts';

/** The Stripe stand-in global-setup started (its URL and key are in the environment workers inherit). */
export const stripeStandIn = () => {
  const endpoint = process.env.STRIPE_API_URL;
  const secret = process.env.LOCAL_STRIPE_SECRET;
  if (!endpoint || !secret)
    throw new Error('No Stripe stand-in: STRIPE_API_URL and LOCAL_STRIPE_SECRET unset');
  return { endpoint, secretKey: (JSON.parse(secret) as { secret_key: string }).secret_key };
};

/** Registers this worker's API as a webhook endpoint of the stand-in (and publishes the signing secrets). */
export const connectTestWebhooks = async (apiUrl: string): Promise<void> => {
  await connectStripeWebhooks(stripeStandIn(), apiUrl);
};

/** Removes this worker's API from the stand-in's webhook endpoints (its file has ended). */
export const disconnectTestWebhooks = async (apiUrl: string): Promise<void> => {
  await disconnectStripeWebhooks(stripeStandIn(), apiUrl);
};

/** Runs a `npm run pay` action on the stand-in (`complete`, `refund`, ...), as the card network would. */
export const pay = async (
  action: string,
  id: string,
): Promise<{ events: Array<{ id: string; type: string }> }> => {
  const response = await fetch(`${stripeStandIn().endpoint}/_standin/pay/${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id }),
  });
  if (!response.ok) throw new Error(`pay ${action} ${id}: ${response.status} ${await response.text()}`);
  return (await response.json()) as { events: Array<{ id: string; type: string }> };
};

/**
 * Have the stand-in's events `eventIds` reached the API at `apiUrl` (this test file's)? Each: an
 * attempt to it answered 2xx, or none was due (a type it does not subscribe to: no attempt, and
 * nothing pending anywhere). Not `pending_webhooks` alone: the stand-in is shared by every test
 * file, each registers its API as an endpoint, and an endpoint a finished file left never answers,
 * so an event's count of pending endpoints may never reach 0 (waits on it timed out in a
 * clean-clone CI run, stop 58). The stand-in delivers to each endpoint one event after another:
 * under a full run's backlog this can take tens of seconds.
 */
export const deliveredTo = async (apiUrl: string, eventIds: readonly string[]): Promise<boolean> => {
  const { endpoint, secretKey } = stripeStandIn();
  const auth = { headers: { authorization: `Bearer ${secretKey}` } };
  const query = eventIds.map((id) => `event=${id}`).join('&');
  const { deliveries } = (await (await fetch(`${endpoint}/_standin/deliveries?${query}`)).json()) as {
    deliveries: Array<{ event: string; status: number; url: string }>;
  };
  const here = deliveries.filter((d) => d.url.startsWith(apiUrl));
  for (const id of eventIds) {
    const attempts = here.filter((d) => d.event === id);
    if (attempts.some((d) => d.status >= 200 && d.status < 300)) continue;
    if (attempts.length > 0) return false;
    const event = (await (await fetch(`${endpoint}/v1/events/${id}`, auth)).json()) as {
      pending_webhooks: number;
    };
    if (event.pending_webhooks > 0) return false;
  }
  return true;
};

/** The caller's entitlements (GET /me/entitlements). */
export const entitlementsOf = async (api: TestApi, token: string) =>
  (await api.get('/me/entitlements', { token })).body.data.entitlements as Array<{
    kind: string;
    creator_id: string;
    content_id: string | null;
    status: string;
    grants_access: boolean;
  }>;

/**
 * Subscribes the token's account to `creatorId` the way a viewer does: checkout, the payment
 * completed on the stand-in, then the webhook grants it (within 5 s: the issue's figure for one
 * purchase; a test that starts many at once on a shared stand-in gives them longer).
 */
export const subscribePaid = async (
  api: TestApi,
  token: string,
  creatorId: string,
  timeoutMs = 5000,
): Promise<string> => {
  const checkout = await api.post(`/creators/${creatorId}/subscription`, { token });
  if (checkout.status !== 201)
    throw new Error(`checkout: ${checkout.status} ${JSON.stringify(checkout.body)}`);
  await pay('complete', checkout.body.data.checkout_id);
  await waitFor(
    async () =>
      (await entitlementsOf(api, token)).some(
        (e) => e.kind === 'subscription' && e.creator_id === creatorId && e.grants_access,
      ),
    'the subscription entitlement',
    timeoutMs,
  );
  return checkout.body.data.checkout_id as string;
};

/**
 * Lets a studio-made creator take payments, as the creator does: `POST /studio/payouts/onboarding`
 * (the Connect account), Stripe's form finished on the stand-in (`npm run pay -- onboard`), then
 * `account.updated` arrives and `GET /studio/payouts` says `charges_enabled` (within 5 s). Without
 * it a checkout for the creator's plan or items is a 422 (every charge pays the creator).
 */
export const onboardCreator = async (api: TestApi, token: string, creatorId: string): Promise<void> => {
  const started = await api.post('/studio/payouts/onboarding', { token });
  if (started.status !== 201)
    throw new Error(`onboarding: ${started.status} ${JSON.stringify(started.body)}`);
  await pay('onboard', creatorId);
  await waitFor(
    async () => (await api.get('/studio/payouts', { token })).body.data?.charges_enabled === true,
    'charges_enabled',
    5000,
  );
};

/**
 * A fresh viewer account written straight to the table (as sign-up leaves it: its app account
 * token included), with an access token: the buyer of the store purchase tests.
 */
export const newViewer = async (emailPrefix: string) => {
  const account = newAccount(
    { email: `${emailPrefix}-${randomUUID()}@example.com`, creator_name: 'Viewer', handle: null },
    new Date(),
  );
  await createAccount(account);
  return {
    account,
    accountId: account.account_id,
    token: (await issueAccessToken(account.account_id, new Date())).token,
  };
};

const sorted = (months: EarningMonth[]) =>
  months
    .filter(hasMoney)
    .map(({ month, currency, gross, platform_fee, net }) => ({ month, currency, gross, platform_fee, net }))
    .sort((a, b) => `${a.month}${a.currency}`.localeCompare(`${b.month}${b.currency}`));

/**
 * A creator's monthly earnings totals as stored and as its earnings give them (both read strongly
 * consistent, months without money left out): equal whenever every write is in.
 */
export const earningTotals = async (creatorId: string) => ({
  stored: sorted(await earningMonthsOf(creatorId, { consistent: true })),
  fromEarnings: sorted(monthTotals(await earningsOf(creatorId, { consistent: true }))),
});

/**
 * A Checkout Session's parameters as the checkout route (shared/payments/checkout.ts) would make
 * them, for tests that drive the Stripe stand-in directly: a 4.99 monthly subscription or a 2.99
 * pay-per-view, `metadata` on the session and on the subscription or payment intent it makes,
 * with `customer`, and with a destination charge to `destination` and the platform's fee.
 */
export const checkoutParams = (
  mode: 'subscription' | 'payment',
  metadata: Record<string, string>,
  options: { customer?: string; destination?: string } = {},
): Stripe.Checkout.SessionCreateParams => {
  const subscription = mode === 'subscription';
  const transfer = options.destination ? { transfer_data: { destination: options.destination } } : {};
  return {
    mode,
    ...(options.customer ? { customer: options.customer } : {}),
    client_reference_id: metadata.account_id,
    metadata,
    line_items: [
      {
        quantity: 1,
        price_data: {
          currency: 'usd',
          unit_amount: subscription ? 499 : 299,
          ...(subscription ? { recurring: { interval: 'month' as const } } : {}),
          product_data: { name: subscription ? 'Sub' : 'PPV' },
        },
      },
    ],
    ...(subscription
      ? {
          subscription_data: {
            metadata,
            ...transfer,
            ...(options.destination ? { application_fee_percent: 10 } : {}),
          },
        }
      : {
          payment_intent_data: {
            metadata,
            ...transfer,
            ...(options.destination ? { application_fee_amount: 30 } : {}),
          },
        }),
    success_url: 'https://example.com/ok',
  };
};
