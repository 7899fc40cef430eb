import { clock } from '../../shared/clock.ts';
import { logger, recordMetric } from '../../shared/observability/index.ts';
import { sqsWorker } from '../../shared/platform/worker.ts';
import { handleMessage } from '../../shared/webhooks/deliveries.ts';
import { DeliveryMessage } from '../../shared/webhooks/messages.ts';
import { callbackPolicy } from '../../shared/webhooks/ssrf.ts';
import { senderRow } from './workers.ts';

/**
 * The delivery queue's consumer: each message is one attempt (shared/webhooks/deliveries.ts). A
 * message that cannot be parsed is logged and dropped; an error of our own (DynamoDB, KMS, SQS)
 * fails only its item (sqsWorker). One log line per attempt: ids, attempt, outcome, status,
 * duration; never the callback URL, the body or a secret.
 */
export const handler = sqsWorker(senderRow, 'webhook attempt failed', async (body, messageId) => {
  const parsed = DeliveryMessage.safeParse(body);
  if (!parsed.success) return logger.warn('webhook message dropped', { messageId });
  const report = await handleMessage(parsed.data, {
    now: clock.now,
    random: Math.random,
    policy: callbackPolicy(),
  });
  // A hop of a long wait is no attempt: counted, not logged.
  if (report.outcome !== 'held') logger.info('webhook attempt', { ...report });
  recordMetric(`webhook_${report.outcome.replace(/-/g, '_')}`);
});
