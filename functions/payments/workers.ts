import type { RouteRow } from '../../shared/http/route.ts';

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

export const paymentWorkers: readonly RouteRow[] = [reconcileRow];
