import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { projectRecord, supersededRecords } from '../../shared/projection/projector.ts';

/**
 * The projector Lambda, on the table's stream through an event source mapping with
 * ReportBatchItemFailures (infra/projector.ts; locally scripts/local/table-stream.ts). Records
 * are handled in order (skipping those a later record of the same item supersedes); at the first failure the rest of the batch is reported failed from that
 * record on, so records of one item are never applied out of order.
 */
export const handler = async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
  const now = new Date();
  const superseded = supersededRecords(event.Records);
  for (const [i, record] of event.Records.entries()) {
    if (superseded.has(i)) continue;
    try {
      await projectRecord(record, now);
    } catch (error) {
      console.error(
        JSON.stringify({
          level: 'ERROR',
          message: 'projection failed; the batch is retried from this record',
          eventID: record.eventID,
          eventName: record.eventName,
          error: (error as Error).name,
          detail: (error as Error).message,
        }),
      );
      return { batchItemFailures: [{ itemIdentifier: record.dynamodb?.SequenceNumber ?? '' }] };
    }
  }
  return { batchItemFailures: [] };
};
