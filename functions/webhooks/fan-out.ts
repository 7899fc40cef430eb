import { worker } from '../../shared/platform/worker.ts';
import { fanOut } from '../../shared/webhooks/deliveries.ts';
import { fanOutRow } from './workers.ts';

/**
 * The target of the EventBridge rule on the platform bus (one event per invocation): queues one
 * delivery per enabled subscription of the event's type and creator. An invalid or oversized
 * event is logged and dropped (it would fail the same way on every retry); DynamoDB and SQS
 * errors throw, so EventBridge's asynchronous retries and the rule's dead-letter queue apply.
 */
export const handler = worker(fanOutRow, fanOut, (result) => ({
  level: result.kind === 'queued' ? 'info' : 'warn',
  message: 'webhook fan-out',
  fields: { ...result },
}));
