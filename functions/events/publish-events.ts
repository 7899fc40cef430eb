import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { publishChanges } from '../../shared/events/publish-changes.ts';
import { eventBusName } from '../../shared/events/publish.ts';
import { worker } from '../../shared/platform/worker.ts';
import { eventPublisherRow } from './worker.ts';

/**
 * The event publisher Lambda, the table stream's second reader (infra/events.ts; locally
 * scripts/local/event-bus.ts): the batch's changes as platform events on the bus, in order
 * (shared/events/publish-changes.ts); records whose events could not be put are reported
 * (ReportBatchItemFailures) and redelivered.
 */
export const handler = worker(
  eventPublisherRow,
  (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> =>
    publishChanges(event.Records, { busName: eventBusName() }),
);
