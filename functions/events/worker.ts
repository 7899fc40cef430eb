import type { WorkerRow } from '../../shared/routing/function-row.ts';

/**
 * The domain event publisher: the table stream's second reader (the projector is the first),
 * turning source-item changes into platform events on the stack's EventBridge bus
 * (infra/events.ts, docs/events.md). It reads nothing from the table (both images come with the
 * record), so its row grants no table access; its one other grant, events:PutEvents on the bus
 * only, and EVENT_BUS_NAME come from shared/events/access.ts, on AWS and locally alike.
 */
export const eventPublisherRow = {
  trigger: '$stream/events',
  handler: 'events/publish-events',
  timeout: {
    seconds: 60,
    reason: 'a batch of 100 records: PutEvents in calls of 10 with retries and backoff',
  },
  summary: 'Event publisher: domain events from the table stream onto the EventBridge bus (docs/events.md)',
} as const satisfies WorkerRow;
