import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { applyMailFeedback } from '../../shared/mail/feedback.ts';
import { logger, metrics, recordMetric } from '../../shared/observability/index.ts';

/**
 * The mail feedback queue's consumer (SQS event source, partial batch responses): each message
 * is one SES bounce or complaint event (infra/mail.ts), whose addresses are marked undeliverable
 * (shared/mail/feedback.ts). A message that is not one is logged and dropped; a DynamoDB error
 * fails only its item, which SQS redelivers (then the dead-letter queue). Addresses are never logged.
 */
const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const failures = await Promise.all(
    event.Records.map(async (record) => {
      try {
        const marked = await applyMailFeedback(parseJson(record.body));
        if (marked === undefined)
          logger.warn('mail feedback message dropped', { messageId: record.messageId });
        else recordMetric('mail_addresses_suppressed', marked);
        return undefined;
      } catch (error) {
        logger.error('mail feedback failed', { error: (error as Error).name, messageId: record.messageId });
        return { itemIdentifier: record.messageId };
      }
    }),
  );
  metrics.publishStoredMetrics();
  return { batchItemFailures: failures.filter((f) => f !== undefined) };
};
