import * as z from 'zod/mini';
import { ENTITLEMENT_KINDS, ENTITLEMENT_SOURCES, ENTITLEMENT_STATUSES } from '../entitlements/model.ts';
import { described, named, responseSchemas, responsesNotBundled } from '../schema/schema-meta.ts';
import { SUBSCRIPTION_STATUSES } from '../catalog/model.ts';
import { chargeCurrency, chargePrice } from '../catalog/price.ts';

const targetId = (what: string, example: string) =>
  described(
    z.optional(
      z
        .string({ error: 'must be a string' })
        .check(
          z.minLength(1, { error: 'is required' }),
          z.maxLength(128, { error: 'must be at most 128 characters' }),
          z.regex(/^[A-Za-z0-9_-]+$/, { error: 'must contain only letters, digits, _ and -' }),
        ),
    ),
    what,
    example,
  );

/** `POST /checkout` body: exactly one of `creator_id` (a subscription) and `content_id` (a purchase). */
export const checkoutBody = /* @__PURE__ */ (() =>
  z
    .strictObject({
      creator_id: targetId('The creator whose plan to subscribe to (id or handle)', 'cr_0001'),
      content_id: targetId('The pay-per-view episode to buy', 'ep_0001_s1e03'),
    })
    .check(
      z.superRefine((body, ctx) => {
        if ((body.creator_id === undefined) === (body.content_id === undefined))
          ctx.addIssue({
            code: 'custom',
            path: [body.creator_id === undefined ? 'creator_id' : 'content_id'],
            message: 'send exactly one of creator_id and content_id',
          });
      }),
    ))();
export type CheckoutBody = z.infer<typeof checkoutBody>;

/** `PUT /studio/plan` body. */
export const planBody = /* @__PURE__ */ (() =>
  z.strictObject({
    price: chargePrice('Price of one period'),
    currency: chargeCurrency(),
    interval: described(
      z.enum(['month', 'year'], { error: 'must be month or year' }),
      'Billing period',
      'month',
    ),
  }))();
export type PlanBody = z.infer<typeof planBody>;

// ---- Responses -------------------------------------------------------------------------------

const buildResponses = () => {
  const text = (what: string, example: string) => described(z.string(), what, example);
  const money = (what: string, example: number) => described(z.number(), what, example);
  const flag = (what: string, example: boolean) => described(z.boolean(), what, example);
  const when = (what: string, example: string | null) => described(z.nullable(z.string()), what, example);
  const Checkout = named(
    'Checkout',
    z.object({
      checkout_id: text('The Stripe Checkout Session', 'cs_test_a1B2c3D4'),
      url: text(
        'The hosted payment page to send the buyer to',
        'https://checkout.stripe.com/c/pay/cs_test_a1B2c3D4',
      ),
      expires_at: text('When the page stops accepting payment (ISO 8601, UTC)', '2026-11-29T03:00:00.000Z'),
      amount: money('What is charged now, in major units of `currency`', 4.99),
      currency: text('ISO 4217 currency', 'USD'),
    }),
    'A payment page for a subscription or a pay-per-view purchase',
  );
  const Link = named(
    'BillingLink',
    z.object({ url: text('Where to send the user', 'https://billing.stripe.com/p/session/test_x') }),
    'A Stripe-hosted page for the caller',
  );
  const Entitlement = named(
    'Entitlement',
    z.object({
      kind: described(
        z.enum(ENTITLEMENT_KINDS),
        '`subscription` (a creator) or `purchase` (one item)',
        'subscription',
      ),
      creator_id: text('The creator', 'cr_0001'),
      content_id: described(z.nullable(z.string()), 'The purchased item; null for a subscription', null),
      status: described(
        z.enum(ENTITLEMENT_STATUSES),
        '`active`; `past_due` (a renewal failed: access until `grace_until`); `expired`; `refunded`, `disputed` (taken back); `pending` (payment not settled); `revoked` (an app store withdrew it: Family Sharing ended, Google revoked)',
        'active',
      ),
      source: described(
        z.enum(ENTITLEMENT_SOURCES),
        'Who took the payment: `stripe` (web), `apple` (App Store), `google` (Google Play)',
        'stripe',
      ),
      valid_until: when('Paid up until (ISO 8601); null: no end (a purchase)', '2026-12-29T01:00:00.000Z'),
      grace_until: when('After a failed renewal, access holds until then; else null', null),
      cancel_at_period_end: flag('Ends at `valid_until` instead of renewing', false),
      grants_access: flag('Whether it lets the caller play now', true),
    }),
    'One thing the caller has paid for',
  );
  const Entitlements = named(
    'Entitlements',
    z.object({ entitlements: z.array(Entitlement) }),
    "The caller's entitlements",
  );
  const SubscriptionCancelled = named(
    'SubscriptionCancellation',
    z.object({
      creator_id: text('The creator', 'cr_0001'),
      user_subscription: z.object({
        is_subscribed: flag('The subscription grants access now', true),
        subscribed_at: when('When it started (ISO 8601); null without one', '2026-11-01T12:00:00.000Z'),
        renewal_date: when('End of the paid period (ISO 8601); null without one', '2026-12-01T12:00:00.000Z'),
        status: described(
          z.nullable(z.enum(SUBSCRIPTION_STATUSES)),
          '`cancelled` after this call (access until `renewal_date`)',
          'cancelled',
        ),
      }),
      renews_in_stores: described(
        z.array(z.enum(['app_store', 'google_play'])),
        'The app stores where a subscription of the caller to the creator still renews after this call (bought in the iOS or Android app): no API cancels those, the user does in the store (Settings › Subscriptions on iOS, Play Store › Subscriptions on Android). Empty when nothing renews any more',
        [],
      ),
    }),
    "The caller's subscription after cancelling",
  );
  const WebhookReceipt = named(
    'StripeWebhookReceipt',
    z.object({
      received: flag('Always true', true),
      event_id: text('The Stripe event', 'evt_1AbC'),
      type: text('Its type', 'invoice.paid'),
      outcome: described(
        z.enum(['processed', 'duplicate', 'ignored']),
        'What the platform did with it',
        'processed',
      ),
    }),
    'Acknowledgement of a Stripe event',
  );
  const Month = z.object({
    month: text('Month (YYYY-MM, UTC)', '2026-11'),
    currency: text('Currency (lower case, as Stripe reports it)', 'usd'),
    gross: money('Paid by viewers', 49.9),
    platform_fee: money("The platform's fee", 9.98),
    net: money("The creator's share", 39.92),
  });
  const Total = z.object({
    currency: text('Currency (lower case, as Stripe reports it)', 'usd'),
    gross: money('Paid by viewers, all time', 49.9),
    platform_fee: money("The platform's fee, all time", 9.98),
    net: money("The creator's share, all time", 39.92),
  });
  const Payouts = named(
    'Payouts',
    z.object({
      connected: flag('A Stripe Connect account exists for the creator', true),
      charges_enabled: flag('It may take payments: paid prices are allowed', true),
      payouts_enabled: flag('Stripe pays out to the bank account', true),
      application_fee_percent: money("The platform's fee on each charge, percent", 20),
      earnings: z.object({
        gross: money(
          'All time, major units, summed across currencies (read `per_currency` or `per_month` for each)',
          49.9,
        ),
        platform_fee: money("The platform's fee, all time", 9.98),
        net: money("The creator's share, all time", 39.92),
        per_currency: z.array(Total),
        per_month: z.array(Month),
      }),
    }),
    "The creator's payouts: capabilities and earnings",
  );
  const Plan = named(
    'Plan',
    z.object({
      price: money('Price of one period', 4.99),
      currency: text('Currency', 'USD'),
      interval: described(z.enum(['month', 'year']), 'Billing period', 'month'),
      price_id: text('The Stripe Price new checkouts use', 'price_1AbC'),
    }),
    "The creator's subscription plan",
  );
  return { Checkout, Link, Entitlement, Entitlements, SubscriptionCancelled, WebhookReceipt, Payouts, Plan };
};

export const paymentResponses =
  process.env.LAMBDA_BUNDLE_RESPONSES === 'none' ? responsesNotBundled : responseSchemas(buildResponses);
