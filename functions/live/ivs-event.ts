import { handleIvsEvent, type IvsEventResult, isWarning } from '../../shared/channels/ivs-event-handling.ts';
import { metrics, recordMetric } from '../../shared/observability/index.ts';

/**
 * The target of the EventBridge rule on `aws.ivs` (one IVS document per invocation): handles it
 * (shared/channels/ivs-event-handling.ts) and logs the outcome as one JSON line. An invalid document
 * (or recording metadata that is not the documented JSON) is logged and dropped, not thrown: it
 * would fail the same way on every retry (Lambda's asynchronous retries, then the failure
 * destination). Errors of DynamoDB and S3 (a recording's metadata not there yet) do throw, so
 * those events are retried.
 */
export const handler = async (event: unknown): Promise<IvsEventResult> => {
  const result = await handleIvsEvent(event);
  const { id, 'detail-type': detailType } = (event ?? {}) as { id?: unknown; 'detail-type'?: unknown };
  const level = isWarning(result) ? 'WARN' : 'INFO';
  console.log(JSON.stringify({ level, message: 'ivs event', eventId: id, detailType, ...result }));
  if (result.kind === 'limit-breach') {
    recordMetric('ivs_limit_breaches');
    metrics.publishStoredMetrics();
  }
  return result;
};
