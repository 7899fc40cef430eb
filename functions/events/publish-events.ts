import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { publishChanges } from '../../shared/events/publish-changes.ts';
import { eventBusName } from '../../shared/events/publish.ts';
import { metrics } from '../../shared/observability/index.ts';

/**
 * The event publisher Lambda, the table stream's second reader (infra/events.ts; locally
 * scripts/local/event-bus.ts): the batch's changes as platform events on the bus, in order
 * (shared/events/publish-changes.ts); records whose events could not be put are reported
 * (ReportBatchItemFailures) and redelivered.
 */
export const handler = async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
  const result = await publishChanges(event.Records, { busName: eventBusName() });
  metrics.publishStoredMetrics();
  return result;
};
