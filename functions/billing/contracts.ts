import { contract } from '../../shared/http/contract.ts';
import {
  appleNotificationBody,
  appleTransactionBody,
  googlePurchaseBody,
  googlePushBody,
  storeResponses,
} from '../../shared/stores/schemas.ts';

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

export const receiveAppleNotification = /* @__PURE__ */ (() =>
  contract({
    ...storeCallback,
    operationId: 'receiveAppleNotification',
    path: '/billing/apple/notifications',
    handler: 'billing/receive-apple-notification',
    // The processed mark (GetItem, PutItem); the account by its app token (GetItem); a PPV item's
    // creator (GSI3); the entitlement (GetItem, UpdateItem; Query: the target's object items).
    dynamo: { actions: ['GetItem', 'PutItem', 'Query', 'UpdateItem'], indexes: ['GSI3'] },
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
  }))();

export const linkAppleTransaction = /* @__PURE__ */ (() =>
  contract({
    ...appLimits,
    tag,
    method: 'POST',
    operationId: 'linkAppleTransaction',
    path: '/billing/apple/transactions',
    handler: 'billing/link-apple-transaction',
    // The account by its app token (GetItem); a PPV item's creator (GSI3); the entitlement
    // (GetItem, UpdateItem; Query: the target's object items).
    dynamo: { actions: ['GetItem', 'Query', 'UpdateItem'], indexes: ['GSI3'] },
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
  }))();

export const receiveGoogleNotification = /* @__PURE__ */ (() =>
  contract({
    ...storeCallback,
    operationId: 'receiveGoogleNotification',
    path: '/billing/google/notifications',
    handler: 'billing/receive-google-notification',
    // The processed mark and the purchase link (GetItem, PutItem); the account by its app token
    // (GetItem); a PPV item's creator (GSI3); the entitlement (GetItem, UpdateItem; Query: the
    // target's object items).
    dynamo: { actions: ['GetItem', 'PutItem', 'Query', 'UpdateItem'], indexes: ['GSI3'] },
    needs: ['google-play', 'payment-settings'],
    summary: "Google Play's Real-time developer notifications (a Pub/Sub push with Google's OIDC token)",
    description:
      "For Pub/Sub only: the push subscription of the Play Console's Real-time developer notifications topic. Believed only with the push's OIDC token (`Authorization: Bearer`, signed by Google for the configured audience and the subscription's service account). Each `messageId` is processed once; the purchase it names is read from the Play Developer API (`purchases.subscriptionsv2.get`, `purchases.products.get`), its state applied to the entitlement of the account it belongs to (the obfuscated account id is the `app_account_token`, or the app linked it), and acknowledged once stored (docs/payments.md).",
    request: { body: googlePushBody },
    responses: () => ({
      200: receipt(),
      400: { description: 'Not a Pub/Sub push body', message: 'Malformed request' },
      401: {
        description:
          "No valid OIDC token of the push subscription's service account: nothing is read or written",
        message: 'Invalid Pub/Sub push token',
      },
    }),
  }))();

export const linkGooglePurchase = /* @__PURE__ */ (() =>
  contract({
    ...appLimits,
    tag,
    method: 'POST',
    operationId: 'linkGooglePurchase',
    path: '/billing/google/purchases',
    handler: 'billing/link-google-purchase',
    // The account by its app token, the link and the entitlement (GetItem, PutItem, UpdateItem;
    // Query: the target's object items); a PPV item (GSI3).
    dynamo: { actions: ['GetItem', 'PutItem', 'Query', 'UpdateItem'], indexes: ['GSI3'] },
    needs: ['google-play', 'payment-settings'],
    summary: 'Unlock a Google Play purchase at once: link its purchase token to the caller',
    description:
      "The Android app sends the purchase token Play Billing answered, right after the purchase, so access does not wait for the notification. The purchase is read from the Play Developer API and linked to the caller (the first account to link it keeps it), then applied and acknowledged. 403 when the purchase carries another account's `app_account_token` or another account linked it first, 422 for a product this platform does not sell or a token Google Play does not know.",
    request: { body: googlePurchaseBody },
    responses: () => ({
      200: {
        description: "The caller's entitlement for what the purchase bought",
        data: storeResponses().Entitlement,
      },
      403: {
        description: 'The purchase belongs to another account',
        message: 'This purchase was made by another account',
      },
      422: {
        description: 'Not a product this platform sells, or not a purchase Google Play knows',
        message: 'Validation failed',
      },
    }),
  }))();

export const storeContracts = [
  receiveAppleNotification,
  linkAppleTransaction,
  receiveGoogleNotification,
  linkGooglePurchase,
] as const;
