import { logger } from '../../shared/observability/index.ts';
import { type FanOutResult, fanOut } from '../../shared/webhooks/deliveries.ts';

/**
 * The target of the EventBridge rule on the platform bus (one event per invocation): queues one
 * delivery per enabled subscription of the event's type and creator. An invalid or oversized
 * event is logged and dropped (it would fail the same way on every retry); DynamoDB and SQS
 * errors throw, so EventBridge's asynchronous retries and the rule's dead-letter queue apply.
 */
export const handler = async (event: unknown): Promise<FanOutResult> => {
  const result = await fanOut(event);
  if (result.kind === 'queued') logger.info('webhook fan-out', { ...result });
  else logger.warn('webhook fan-out', { ...result });
  return result;
};
