import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { eventsOfBatch } from '../../shared/events/changes.ts';
import { eventBusName, eventProblems, publishEvents } from '../../shared/events/publish.ts';
import { metrics, recordMetric } from '../../shared/observability/index.ts';

/**
 * The event publisher Lambda, the table stream's second reader (infra/events.ts; locally
 * scripts/local/platform.ts): maps the batch's changes to platform events (shared/events/changes.ts)
 * and puts them on the bus in order. An event its schema refuses is logged and counted, not put
 * (a retry would refuse it again). Entries still failing after their retries make the batch fail
 * from that event's record on (ReportBatchItemFailures), so the stream redelivers from there and
 * the same ids are put again.
 */
export const handler = async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
  const mapped = eventsOfBatch(event.Records).filter(({ event: e }) => {
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
    { busName: eventBusName() },
  );
  recordMetric('events_published', report.published);
  recordMetric('events_failed_entries', report.failedEntries);
  metrics.publishStoredMetrics();
  const failed = report.firstUnpublished === undefined ? undefined : mapped[report.firstUnpublished];
  const record = failed ? event.Records[failed.record] : undefined;
  if (report.failedEntries > 0)
    console.log(
      JSON.stringify({
        level: record ? 'ERROR' : 'WARN',
        message: record
          ? 'events not published; the batch is retried from this record'
          : 'event entries failed, then published on retry',
        records: event.Records.length,
        published: report.published,
        failedEntries: report.failedEntries,
        errors: [...new Set(report.errors)],
        ...(record ? { eventID: record.eventID } : {}),
      }),
    );
  return { batchItemFailures: record ? [{ itemIdentifier: record.dynamodb?.SequenceNumber ?? '' }] : [] };
};
