import { NOT_A_CREATOR_YET } from '../../shared/creators/messages.ts';
import { contract } from '../../shared/http/contract.ts';
import { creatorPath } from '../../shared/watch/schemas.ts';
import { checkoutBody, paymentResponses, planBody } from '../../shared/payments/schemas.ts';

const tag = 'Payments';
const creatorNotFound = { description: 'No creator has this id or handle', message: 'Creator not found' };
const entitled = {
  description: 'The caller already holds this subscription or item (it grants access now)',
  message: 'You already subscribe to this creator',
};
/** Checkout sessions cost a Stripe call each: 30 an hour per account is plenty for honest use. */
/** Per account (30 an hour), and at API Gateway for the route as a whole (a flood stops before Lambda). */
const paymentLimits = {
  rateLimit: { limit: 30, windowSeconds: 3600, by: 'account' },
  throttle: { rate: 20, burst: 40 },
} as const;
/** What the checkout refuses on its own (besides a body that fails validation). */
const notForSale = {
  description:
    "The creator cannot be paid: no paid plan, or their Stripe payout account cannot take charges yet (every charge is a destination charge to the creator's account); for `content_id`, also a free or premium item (premium comes with the subscription). One entry on `creator_id` or `content_id`",
  message: 'Validation failed',
};
const notStudio = {
  description: 'The account has not finished onboarding as a creator',
  message: NOT_A_CREATOR_YET,
};

export const createCheckout = /* @__PURE__ */ (() =>
  contract({
    operationId: 'createCheckout',
    tag,
    method: 'POST',
    path: '/checkout',
    handler: 'payments/create-checkout',
    // A creator by id (GetItem) or handle (GSI1); an item by id (GSI3, Query) and the caller's
    // entitlement to it (GetItem); the Stripe customer (GetItem, PutItem).
    dynamo: { actions: ['GetItem', 'PutItem'], indexes: ['GSI1', 'GSI3'] },
    needs: ['stripe'],
    auth: 'required',
    ...paymentLimits,
    summary: 'Start paying: a subscription to a creator or a pay-per-view item (a Stripe Checkout page)',
    description:
      "Starts a Stripe Checkout Session for the caller: `{creator_id}` subscribes to the creator's plan (Stripe Billing, renews each period), `{content_id}` buys one pay-per-view episode. Send the buyer to `url`. Nothing is unlocked by this call: access comes when Stripe confirms the payment (webhook), usually within seconds; poll `GET /me/entitlements`. A retried request (same caller, item and price, within 30 minutes) answers the same session, so a double click pays once. Every charge is a destination charge to the creator's Stripe Connect account with the platform's fee. 409 when the caller already holds it, 404 for an unknown creator or item, 422 for a free item, a premium one (it comes with the subscription), a creator without a paid plan, a creator whose payout account cannot take charges yet (\"This creator cannot take payments yet\", on `creator_id` or `content_id`), or the caller's own channel or item (a creator does not pay themself).",
    request: { body: checkoutBody },
    responses: () => ({
      201: { description: 'The payment page', data: paymentResponses().Checkout },
      404: { description: 'No creator or episode has this id', message: 'Content not found' },
      409: entitled,
      422: notForSale,
    }),
  }))();

export const subscribeCreator = /* @__PURE__ */ (() =>
  contract({
    operationId: 'subscribeCreator',
    tag,
    method: 'POST',
    path: '/creators/{id}/subscription',
    handler: 'payments/subscribe-creator',
    // The creator by id or handle, the subscription entitlement and the customer: no item lookup.
    dynamo: { actions: ['GetItem', 'PutItem'], indexes: ['GSI1'] },
    needs: ['stripe'],
    auth: 'required',
    ...paymentLimits,
    summary: 'Subscribe to a creator: starts the same checkout as POST /checkout {creator_id}',
    description:
      "Starts paying for the creator's plan: exactly `POST /checkout` with `{creator_id}` (a Stripe Checkout page; nothing is granted until Stripe confirms the payment). It no longer grants a free month. 422 (on `creator_id`) for a creator without a paid plan, whose payout account cannot take charges yet, or who is the caller.",
    request: { path: creatorPath },
    responses: () => ({
      201: { description: 'The payment page', data: paymentResponses().Checkout },
      404: creatorNotFound,
      409: entitled,
      422: notForSale,
    }),
  }))();

export const cancelSubscription = /* @__PURE__ */ contract({
  operationId: 'cancelSubscription',
  tag,
  method: 'DELETE',
  path: '/creators/{id}/subscription',
  handler: 'payments/cancel-subscription',
  // The creator (GetItem, GSI1 by handle) and the entitlement (GetItem); the answer of Stripe
  // applied: the object's item and the entitlement item (UpdateItem), the object items (Query).
  dynamo: { actions: ['GetItem', 'Query', 'UpdateItem'], indexes: ['GSI1'] },
  needs: ['stripe'],
  auth: 'required',
  summary: 'Cancel a subscription at the end of the paid period',
  description:
    "Asks Stripe to cancel the caller's subscription to the creator at the end of the paid period: access holds until `renewal_date`, then it expires; nothing is refunded. Every Stripe subscription of the caller's to the creator that still renews is cancelled so, also one not shown because an App Store or Google Play subscription reaches further (no API cancels an App Store or Google Play subscription: the answer shows the subscription that grants the longest, and `renews_in_stores` names the stores where one still renews, for the app to send the user there). Idempotent; without a subscription it answers the (empty) state.",
  request: { path: creatorPath },
  responses: () => ({
    200: {
      description: "The caller's subscription after cancelling",
      data: paymentResponses().SubscriptionCancelled,
    },
    404: creatorNotFound,
  }),
});

export const openBillingPortal = /* @__PURE__ */ (() =>
  contract({
    operationId: 'openBillingPortal',
    tag,
    method: 'POST',
    path: '/billing/portal',
    handler: 'payments/open-billing-portal',
    dynamo: { actions: ['GetItem'] },
    needs: ['stripe'],
    auth: 'required',
    ...paymentLimits,
    summary: "The caller's Stripe customer portal (card, invoices, cancel)",
    description:
      "A short-lived link to Stripe's customer portal for the caller: payment method, invoices and receipts, cancelling. 404 before the caller's first checkout.",
    responses: () => ({
      200: { description: 'The portal link', data: paymentResponses().Link },
      404: {
        description: 'The caller has never started a checkout',
        message: 'No billing account yet: buy something first',
      },
    }),
  }))();

export const listMyEntitlements = /* @__PURE__ */ contract({
  operationId: 'listMyEntitlements',
  tag,
  method: 'GET',
  path: '/me/entitlements',
  handler: 'payments/list-my-entitlements',
  dynamo: { actions: ['Query'] },
  auth: 'required',
  summary: 'What the caller has paid for: subscriptions and purchases',
  description:
    "Every subscription and purchase of the caller, whatever its state, with `grants_access` (whether it lets them play now: the paywall's own rule). The paywall reads nothing else.",
  responses: () => ({
    200: { description: "The caller's entitlements", data: paymentResponses().Entitlements },
  }),
});

const webhookRow = {
  tag,
  method: 'POST',
  // The processed mark (GetItem, PutItem), a payout's capabilities (UpdateItem).
  dynamo: { actions: ['GetItem', 'PutItem', 'UpdateItem'] },
  needs: ['stripe'],
  auth: 'none',
  // Stripe sends bursts (a renewal run, a retry storm): its own throttle, apart from the users'.
  throttle: { rate: 50, burst: 100 },
} as const;

const webhookResponses = () => ({
  200: {
    description: 'The event was verified and processed (or already was)',
    data: paymentResponses().WebhookReceipt,
  },
  400: {
    description:
      'The Stripe-Signature header is missing, does not match the body, or is older than 300 s: nothing is read or written',
    message: 'Invalid Stripe-Signature',
  },
});

export const receiveStripeWebhook = /* @__PURE__ */ (() =>
  contract({
    ...webhookRow,
    // Besides: an earning (PutItem); an entitlement: its object's item (UpdateItem), the
    // entitlement item read (GetItem), the target's object items (Query), the entitlement written
    // (UpdateItem). The Connect endpoint (account.updated only) writes no entitlement: no Query.
    dynamo: { actions: ['GetItem', 'PutItem', 'Query', 'UpdateItem'] },
    operationId: 'receiveStripeWebhook',
    path: '/billing/stripe/webhook',
    handler: 'payments/receive-stripe-webhook',
    summary: "Stripe's events (signed): payments, subscriptions, refunds, disputes",
    description:
      "For Stripe only: the platform account's events, signed (`Stripe-Signature`, verified on the raw body with a 300 s tolerance). Each event is processed once; the object it names is read again from Stripe and its current state applied, so order and repeats do not matter (docs/payments.md).",
    responses: webhookResponses,
  }))();

export const receiveStripeConnectWebhook = /* @__PURE__ */ (() =>
  contract({
    ...webhookRow,
    operationId: 'receiveStripeConnectWebhook',
    path: '/billing/stripe/connect-webhook',
    handler: 'payments/receive-stripe-connect-webhook',
    summary: "Stripe Connect's events (signed): creators' accounts",
    description:
      "For Stripe only: events of the creators' connected accounts (`account.updated`: whether they may take charges and receive payouts), signed with the Connect endpoint's secret.",
    responses: webhookResponses,
  }))();

export const startPayoutOnboarding = /* @__PURE__ */ (() =>
  contract({
    operationId: 'startPayoutOnboarding',
    tag: 'Studio',
    method: 'POST',
    path: '/studio/payouts/onboarding',
    handler: 'payments/start-payout-onboarding',
    dynamo: { actions: ['GetItem', 'PutItem'] },
    needs: ['stripe'],
    auth: 'required',
    stepUp: true,
    ...paymentLimits,
    summary: 'Connect payouts: a link to Stripe Connect onboarding',
    description:
      "Makes the creator's Stripe Connect Express account (once) and answers a one-time link to Stripe's onboarding (identity, bank account). When Stripe enables charges, paid prices are allowed and viewers' payments go to the creator, less the platform's fee.",
    responses: () => ({
      201: { description: 'The onboarding link', data: paymentResponses().Link },
      403: notStudio,
    }),
  }))();

export const getPayouts = /* @__PURE__ */ contract({
  operationId: 'getPayouts',
  tag: 'Studio',
  method: 'GET',
  path: '/studio/payouts',
  handler: 'payments/get-payouts',
  dynamo: { actions: ['GetItem', 'Query'] },
  needs: ['payment-settings'],
  auth: 'required',
  summary: "The creator's payouts: whether charges and payouts are enabled, and earnings",
  description:
    "Whether the creator's Stripe account may take charges and receive payouts, and what viewers paid: gross, the platform's fee and net, all time and per month and currency (major units).",
  responses: () => ({
    200: { description: 'Payouts and earnings', data: paymentResponses().Payouts },
    403: notStudio,
  }),
});

export const setPlan = /* @__PURE__ */ (() =>
  contract({
    operationId: 'setPlan',
    tag: 'Studio',
    method: 'PUT',
    path: '/studio/plan',
    handler: 'payments/set-plan',
    dynamo: { actions: ['GetItem', 'UpdateItem'] },
    needs: ['stripe'],
    auth: 'required',
    stepUp: true,
    // Each request creates a Stripe Price and Product (the idempotency key differs per price).
    ...paymentLimits,
    summary: "Set the creator's subscription price (a Stripe Price)",
    description:
      "Sets the price of a subscription to the caller (a new Stripe Price): new checkouts pay it; existing subscribers keep theirs until they renew. 409 until Stripe enables charges on the creator's account (POST /studio/payouts/onboarding).",
    request: { body: planBody },
    responses: () => ({
      200: { description: 'The plan now on sale', data: paymentResponses().Plan },
      403: notStudio,
      409: {
        description: "The creator's Stripe account cannot take charges yet",
        message:
          'Connect payouts first: paid prices need a Stripe account that can take charges (POST /studio/payouts/onboarding)',
      },
    }),
  }))();

export const paymentContracts = [
  createCheckout,
  subscribeCreator,
  cancelSubscription,
  openBillingPortal,
  listMyEntitlements,
  receiveStripeWebhook,
  receiveStripeConnectWebhook,
  startPayoutOnboarding,
  getPayouts,
  setPlan,
] as const;
