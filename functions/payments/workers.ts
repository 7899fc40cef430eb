import type { RouteRow } from '../../shared/routing/route.ts';

/**
 * The payment functions no HTTP route invokes (infra/payments.ts), described by route-row fields
 * so their grants and environment come from the same derivation as every function's.
 */

/** Daily (EventBridge Scheduler): entitlements reconciled with Stripe's subscriptions and recent events. */
export const reconcileRow = {
  method: 'POST',
  path: '$schedule/reconcile-payments',
  handler: 'payments/reconcile-payments',
  auth: 'none',
  // GetItem: entitlements, processed events. UpdateItem: a repaired entitlement, capabilities.
  // PutItem: an event marked processed, an earning.
  dynamo: { actions: ['GetItem', 'PutItem', 'UpdateItem'] },
  needs: ['stripe'],
  memory: { mb: 512, reason: 'pages through every Stripe subscription; more CPU, a shorter run' },
  summary: 'Payments reconcile: entitlements repaired from Stripe (daily)',
  tag: 'Workers',
} as const satisfies RouteRow;

/**
 * Every 6 hours (EventBridge Scheduler): the app-store subscriptions close to expiry re-read from
 * their store (docs/payments.md, "App stores: reconcile").
 */
export const storeReconcileRow = {
  method: 'POST',
  path: '$schedule/reconcile-stores',
  handler: 'billing/reconcile-stores',
  auth: 'none',
  // Query GSI1: the store subscriptions whose access ends in the window (the renewal index).
  // GetItem: the entitlement as stored (applyStoreEntitlement). UpdateItem: a corrected entitlement.
  dynamo: { actions: ['GetItem', 'UpdateItem'], indexes: ['GSI1'] },
  needs: ['app-store', 'google-play', 'payment-settings'],
  summary:
    'Stores reconcile: app-store subscriptions close to expiry re-read from Apple and Google (6-hourly)',
  tag: 'Workers',
} as const satisfies RouteRow;

export const paymentWorkers: readonly RouteRow[] = [reconcileRow, storeReconcileRow];
