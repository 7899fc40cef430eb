import type { DynamoDBBatchResponse, DynamoDBRecord } from 'aws-lambda';
import { recordMetric } from '../observability/index.ts';
import { eventsOfBatch } from './changes.ts';
import { eventProblems, type PutEvents, publishEvents } from './publish.ts';

/**
 * One batch of stream records to the bus (the publisher's work, functions/events/publish-events.ts):
 * maps the changes to platform events (changes.ts) and puts them in order (publish.ts). An event
 * its schema refuses, or a change the mapping cannot read, is logged and counted
 * (`events_invalid`), not put: a retry would fail the same way. Entries still failing after their
 * retries make the batch fail from that event's record on (ReportBatchItemFailures), so the stream
 * redelivers from there and the same ids are put again. Counts `events_published` and
 * `events_failed_entries`; the caller publishes the metrics.
 */
export const publishChanges = async (
  records: readonly DynamoDBRecord[],
  options: { busName: string; put?: PutEvents },
): Promise<DynamoDBBatchResponse> => {
  const unmappable = (record: DynamoDBRecord, error: Error) => {
    console.error(
      JSON.stringify({
        level: 'ERROR',
        message: 'change not mappable to events',
        eventID: record.eventID,
        error: error.name,
        detail: error.message,
      }),
    );
    recordMetric('events_invalid');
  };
  const mapped = eventsOfBatch(records, unmappable).filter(({ event: e }) => {
    const problems = eventProblems(e);
    if (problems.length > 0) {
      console.error(
        JSON.stringify({
          level: 'ERROR',
          message: 'event refused by its schema',
          id: e.id,
          type: e.type,
          problems,
        }),
      );
      recordMetric('events_invalid');
    }
    return problems.length === 0;
  });
  const report = await publishEvents(
    mapped.map((m) => m.event),
    options,
  );
  recordMetric('events_published', report.published);
  recordMetric('events_failed_entries', report.failedEntries);
  const failed = report.firstUnpublished === undefined ? undefined : mapped[report.firstUnpublished];
  const record = failed ? records[failed.record] : undefined;
  if (report.failedEntries > 0)
    console.log(
      JSON.stringify({
        level: record ? 'ERROR' : 'WARN',
        message: record
          ? 'events not published; the batch is retried from this record'
          : 'event entries failed, then published on retry',
        records: records.length,
        published: report.published,
        failedEntries: report.failedEntries,
        errors: [...new Set(report.errors)],
        ...(record ? { eventID: record.eventID } : {}),
      }),
    );
  return { batchItemFailures: record ? [{ itemIdentifier: record.dynamodb?.SequenceNumber ?? '' }] : [] };
};
