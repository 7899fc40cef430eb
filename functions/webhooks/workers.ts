import type { WorkerRow } from '../../shared/routing/function-row.ts';

/**
 * The webhook functions no HTTP route invokes (infra/webhooks.ts): function rows with
 * the trigger that invokes them (WorkerRow), so their grants and environment come from the
 * derivation every function's do (shared/platform/access.ts).
 */

/** Target of the EventBridge rule on the platform bus: one message per matching subscription. */
export const fanOutRow = {
  trigger: '$events/webhook-fan-out',
  handler: 'webhooks/fan-out',
  // Query on GSI2 only: the enabled subscriptions of the event's type and creator (sparse index).
  dynamo: { actions: [], indexes: ['GSI2'] },
  needs: ['webhook-outbox'],
  summary: 'Webhook fan-out: a platform event to one queued delivery per enabled subscription',
} as const satisfies WorkerRow;

/** Consumer of the delivery queue: one attempt per message, retries re-enqueued. */
export const senderRow = {
  trigger: '$queue/webhook-deliveries',
  handler: 'webhooks/send-deliveries',
  timeout: {
    seconds: 30,
    reason: 'up to 10 deliveries per invocation, each with its own 10 s request timeout',
  },
  // GetItem: the subscription. UpdateItem: its status (verified, revoked, failures exceeded).
  dynamo: { actions: ['GetItem', 'UpdateItem'] },
  needs: ['webhook-secrets', 'webhook-outbox', 'webhook-dead-letters'],
  summary: 'Webhook sender: signed deliveries and verification challenges, retries, dead letters',
} as const satisfies WorkerRow;

export const webhookWorkers: readonly WorkerRow[] = [fanOutRow, senderRow];
