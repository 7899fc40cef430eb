import { sendMessage } from '../aws/sqs.ts';
import { setting } from '../config.ts';
import { type DeliveryMessage, MAX_DELAY_SECONDS } from './messages.ts';

/**
 * The webhook outbox: the delivery queue (SQS; WEBHOOK_QUEUE_URL) that the fan-out and the API
 * put messages on and the sender drains, and its dead-letter queue (WEBHOOK_DEAD_LETTER_QUEUE_URL)
 * for deliveries that failed for about three days. Locally the same SQS calls are served by the
 * local platform's outbox stand-in (scripts/local/webhooks-outbox.ts).
 */
const send = (queueUrl: string, message: DeliveryMessage, delaySeconds: number) =>
  sendMessage(queueUrl, message, Math.max(0, Math.min(MAX_DELAY_SECONDS, Math.round(delaySeconds))));

/**
 * Enqueues `message` to be handled after `delaySeconds`: up to 15 minutes as SQS's own delay,
 * the rest as `hold_seconds`, which the sender spends by re-enqueueing (15 minutes at a time).
 */
export const enqueue = (message: DeliveryMessage, delaySeconds = 0): Promise<void> => {
  const now = Math.min(MAX_DELAY_SECONDS, delaySeconds);
  return send(
    setting('WEBHOOK_QUEUE_URL'),
    { ...message, hold_seconds: Math.max(0, delaySeconds - now) },
    now,
  );
};

/** Moves an undeliverable message to the dead-letter queue (kept 14 days, alarmed). */
export const deadLetter = (message: DeliveryMessage): Promise<void> =>
  send(setting('WEBHOOK_DEAD_LETTER_QUEUE_URL'), message, 0);
