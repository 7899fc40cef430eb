import type { WorkerRow } from '../../shared/routing/function-row.ts';

/**
 * The payment functions no HTTP route invokes (infra/payments.ts): function rows with
 * the trigger that invokes them (WorkerRow), so their grants and environment come from the
 * derivation every function's do (shared/platform/access.ts).
 */

/** Daily (EventBridge Scheduler): entitlements reconciled with Stripe's subscriptions and recent events. */
export const reconcileRow = {
  trigger: '$schedule/reconcile-payments',
  handler: 'payments/reconcile-payments',
  timeout: {
    seconds: 600,
    reason:
      "pages through every Stripe subscription, recent event and the last 120 days' pay-per-view payments",
  },
  // GetItem: entitlements, processed events, an earning and its reversal (a purchase's, an
  // invoice's), a payment's account (deleted after DELETE /me: refunded). UpdateItem: a
  // repaired entitlement (its object's item and the entitlement item), capabilities, an earning's
  // month. Query: the target's object items of an entitlement written. PutItem: an event marked
  // processed, an earning, a reversal.
  dynamo: { actions: ['GetItem', 'PutItem', 'Query', 'UpdateItem'] },
  needs: ['stripe'],
  memory: { mb: 512, reason: 'pages through every Stripe subscription; more CPU, a shorter run' },
  summary: 'Payments reconcile: entitlements repaired from Stripe (daily)',
} as const satisfies WorkerRow;

/**
 * Every 6 hours (EventBridge Scheduler): the app-store subscriptions close to expiry re-read from
 * their store (docs/payments.md, "App stores: reconcile").
 */
export const storeReconcileRow = {
  trigger: '$schedule/reconcile-stores',
  handler: 'billing/reconcile-stores',
  timeout: { seconds: 600, reason: 'reads every app-store subscription close to expiry from its store' },
  // Query GSI1: the store subscriptions whose access ends in the window (the renewal index: their
  // objects' items). A corrected one (applyEntitlement): its object's item (UpdateItem), the
  // entitlement item (GetItem, UpdateItem), the target's object items (Query on the table).
  dynamo: { actions: ['GetItem', 'Query', 'UpdateItem'], indexes: ['GSI1'] },
  needs: ['app-store', 'google-play', 'payment-settings'],
  summary:
    'Stores reconcile: app-store subscriptions close to expiry re-read from Apple and Google (6-hourly)',
} as const satisfies WorkerRow;

export const paymentWorkers: readonly WorkerRow[] = [reconcileRow, storeReconcileRow];
