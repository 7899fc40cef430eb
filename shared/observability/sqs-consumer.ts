import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { logger, metrics } from './index.ts';

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/**
 * An SQS event source's handler with partial batch responses: `each` gets every message's body
 * (parsed JSON, or undefined when it is not JSON), all in parallel. An error it throws fails only
 * that message, which SQS redelivers (then its dead-letter queue), logged as `failure` with the
 * error's name and the message id, never the body. Metrics recorded meanwhile are published once.
 */
export const sqsConsumer =
  (failure: string, each: (body: unknown, messageId: string) => Promise<void>) =>
  async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const failures = await Promise.all(
      event.Records.map(async (record) => {
        try {
          await each(parseJson(record.body), record.messageId);
          return undefined;
        } catch (error) {
          logger.error(failure, { error: (error as Error).name, messageId: record.messageId });
          return { itemIdentifier: record.messageId };
        }
      }),
    );
    metrics.publishStoredMetrics();
    return { batchItemFailures: failures.filter((f) => f !== undefined) };
  };
