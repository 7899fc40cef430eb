import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { clock } from '../../shared/clock.ts';
import { logger, metrics, recordMetric } from '../../shared/observability/index.ts';
import { handleMessage } from '../../shared/webhooks/deliveries.ts';
import { DeliveryMessage } from '../../shared/webhooks/messages.ts';
import { callbackPolicy } from '../../shared/webhooks/ssrf.ts';

/**
 * The delivery queue's consumer (SQS event source, partial batch responses): each message is
 * one attempt (shared/webhooks/deliveries.ts), handled in parallel. A message that cannot be
 * parsed is logged and dropped; an error of our own (DynamoDB, KMS, SQS) fails only its item,
 * which SQS redelivers (then its dead-letter queue). One log line per attempt: ids, attempt,
 * outcome, status, duration; never the callback URL, the body or a secret.
 */
const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const deps = { now: clock.now, random: Math.random, policy: callbackPolicy() };
  const failures = await Promise.all(
    event.Records.map(async (record) => {
      const parsed = DeliveryMessage.safeParse(parseJson(record.body));
      if (!parsed.success) {
        logger.warn('webhook message dropped', { messageId: record.messageId });
        return undefined;
      }
      try {
        const report = await handleMessage(parsed.data, deps);
        // A hop of a long wait is no attempt: counted, not logged.
        if (report.outcome !== 'held') logger.info('webhook attempt', { ...report });
        recordMetric(`webhook_${report.outcome.replace(/-/g, '_')}`);
        return undefined;
      } catch (error) {
        logger.error('webhook attempt failed', { error: (error as Error).name });
        return { itemIdentifier: record.messageId };
      }
    }),
  );
  metrics.publishStoredMetrics();
  return { batchItemFailures: failures.filter((f) => f !== undefined) };
};
