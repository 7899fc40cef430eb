import { contract } from '../../shared/http/contract.ts';
import { appleNotificationBody, appleTransactionBody, storeResponses } from '../../shared/stores/schemas.ts';

/**
 * The app stores' routes (issue 37, docs/payments.md "App stores"): what Apple and Google call
 * (signed notifications: no bearer, their own API Gateway throttle, like Stripe's webhooks) and
 * what the apps call right after a purchase (bearer, the payment routes' limits).
 */
const tag = 'Payments';

/** Stores send bursts (a renewal run, a retry storm): their own throttle, apart from the users'. */
const storeCallback = {
  tag,
  method: 'POST',
  auth: 'none',
  throttle: { rate: 50, burst: 100 },
} as const;

/** As the payment routes: 30 an hour per account, and a route-wide throttle at API Gateway. */
const appLimits = {
  auth: 'required',
  rateLimit: { limit: 30, windowSeconds: 3600, by: 'account' },
  throttle: { rate: 20, burst: 40 },
} as const;

const receipt = () => ({
  description: 'The notification was verified and applied (or was already, or had nothing to apply)',
  data: storeResponses().StoreReceipt,
});

export const receiveAppleNotification = contract({
  ...storeCallback,
  operationId: 'receiveAppleNotification',
  path: '/billing/apple/notifications',
  handler: 'billing/receive-apple-notification',
  // The processed mark (GetItem, PutItem); the account by its app token (GetItem); a PPV item's
  // creator (GSI3); the entitlement (GetItem, UpdateItem).
  dynamo: { actions: ['GetItem', 'PutItem', 'UpdateItem'], indexes: ['GSI3'] },
  needs: ['app-store', 'payment-settings'],
  summary: "App Store Server Notifications V2 (signed by Apple): the apps' subscriptions and purchases",
  description:
    "For Apple only: the App Store's notifications about in-app subscriptions and purchases (`signedPayload`, a JWS whose x5c chain must lead to the configured Apple root, for this app's bundle id and environment; verified with Apple's library before anything is read or written). Each `notificationUUID` is processed once; the state it carries is applied to the entitlement of the account whose `app_account_token` the transaction carries (docs/payments.md). 400 for anything Apple did not sign for this app.",
  request: { body: appleNotificationBody },
  responses: () => ({
    200: receipt(),
    400: {
      description:
        'Not signed by the App Store for this app and environment (broken chain, wrong bundle id or environment, bad signature): nothing is read or written',
      message: 'Invalid signedPayload: its signature or certificate chain is not valid',
    },
  }),
});

export const linkAppleTransaction = contract({
  ...appLimits,
  tag,
  method: 'POST',
  operationId: 'linkAppleTransaction',
  path: '/billing/apple/transactions',
  handler: 'billing/link-apple-transaction',
  dynamo: { actions: ['GetItem', 'UpdateItem'], indexes: ['GSI3'] },
  needs: ['app-store', 'payment-settings'],
  summary: 'Unlock an App Store purchase at once: the signed transaction StoreKit answered the app',
  description:
    "The iOS app sends StoreKit's signed transaction right after a purchase (or a restore), so access does not wait for Apple's notification. Verified as the notifications are; it must carry the caller's `app_account_token` (`GET /me`) as its `appAccountToken`. Answers the caller's entitlement as it now stands. 403 for another account's purchase, 422 for a product this platform does not sell.",
  request: { body: appleTransactionBody },
  responses: () => ({
    200: {
      description: "The caller's entitlement for what the transaction bought",
      data: storeResponses().Entitlement,
    },
    400: {
      description: 'Not signed by the App Store for this app and environment',
      message: 'Invalid signed_transaction: its signature or certificate chain is not valid',
    },
    403: {
      description: "The transaction's appAccountToken is not the caller's",
      message: 'This purchase was not made by this account (its appAccountToken is not yours)',
    },
    422: { description: 'The product is not one this platform sells', message: 'Validation failed' },
  }),
});

export const storeContracts = [receiveAppleNotification, linkAppleTransaction] as const;
