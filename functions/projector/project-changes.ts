import { clock } from '../../shared/clock.ts';
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { logger } from '../../shared/observability/index.ts';
import { worker } from '../../shared/platform/worker.ts';
import { projectRecord, supersededRecords } from '../../shared/projection/projector.ts';
import { projectorRow } from '../workers.ts';

/**
 * The projector Lambda, on the table's stream through an event source mapping with
 * ReportBatchItemFailures (infra/projector.ts; locally scripts/local/table-stream.ts). Records
 * are handled in order (skipping those a later record of the same item supersedes); at the first
 * failure the rest of the batch is reported failed from that record on, so records of one item
 * are never applied out of order.
 */
export const handler = worker(
  projectorRow,
  async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
    const now = clock.now();
    const superseded = supersededRecords(event.Records);
    for (const [i, record] of event.Records.entries()) {
      if (superseded.has(i)) continue;
      try {
        await projectRecord(record, now);
      } catch (error) {
        logger.error('projection failed; the batch is retried from this record', {
          trigger: projectorRow.trigger,
          eventID: record.eventID,
          eventName: record.eventName,
          error: (error as Error).name,
          detail: (error as Error).message,
        });
        return { batchItemFailures: [{ itemIdentifier: record.dynamodb?.SequenceNumber ?? '' }] };
      }
    }
    return { batchItemFailures: [] };
  },
);
