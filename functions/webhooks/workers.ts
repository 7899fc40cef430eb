import type { RouteRow } from '../../shared/routing/route.ts';

/**
 * The webhook functions no HTTP route invokes (infra/webhooks.ts), described by route-row fields
 * so their grants and environment come from the same derivation as every function's
 * (shared/platform/access.ts). Their `path` names the trigger.
 */

/** Target of the EventBridge rule on the platform bus: one message per matching subscription. */
export const fanOutRow = {
  method: 'POST',
  path: '$events/webhook-fan-out',
  handler: 'webhooks/fan-out',
  auth: 'none',
  // Query on GSI2 only: the enabled subscriptions of the event's type and creator (sparse index).
  dynamo: { actions: [], indexes: ['GSI2'] },
  needs: ['webhook-outbox'],
  summary: 'Webhook fan-out: a platform event to one queued delivery per enabled subscription',
  tag: 'Workers',
} as const satisfies RouteRow;

/** Consumer of the delivery queue: one attempt per message, retries re-enqueued. */
export const senderRow = {
  method: 'POST',
  path: '$queue/webhook-deliveries',
  handler: 'webhooks/send-deliveries',
  auth: 'none',
  // GetItem: the subscription. UpdateItem: its status (verified, revoked, failures exceeded).
  dynamo: { actions: ['GetItem', 'UpdateItem'] },
  needs: ['webhook-secrets', 'webhook-outbox', 'webhook-dead-letters'],
  summary: 'Webhook sender: signed deliveries and verification challenges, retries, dead letters',
  tag: 'Workers',
} as const satisfies RouteRow;

export const webhookWorkers: readonly RouteRow[] = [fanOutRow, senderRow];
