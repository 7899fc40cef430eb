import { applyMailFeedback } from '../../shared/mail/feedback.ts';
import { logger, recordMetric } from '../../shared/observability/index.ts';
import { sqsWorker } from '../../shared/platform/worker.ts';
import { mailFeedbackRow } from './workers.ts';

/**
 * The mail feedback queue's consumer: each message is one SES bounce or complaint event
 * (infra/mail.ts), whose addresses are marked undeliverable (shared/mail/feedback.ts). A message
 * that is not one is logged and dropped; a DynamoDB error fails only its item (sqsWorker).
 * Addresses are never logged.
 */
export const handler = sqsWorker(mailFeedbackRow, 'mail feedback failed', async (body, messageId) => {
  const marked = await applyMailFeedback(body);
  if (marked === undefined) logger.warn('mail feedback message dropped', { messageId });
  else recordMetric('mail_addresses_suppressed', marked);
});
