import { handleIvsEvent, isWarning } from '../../shared/channels/ivs-event-handling.ts';
import { recordMetric } from '../../shared/observability/index.ts';
import { worker } from '../../shared/platform/worker.ts';
import { ivsEventRow } from '../workers.ts';

/**
 * The target of the EventBridge rule on `aws.ivs` (one IVS document per invocation): handles it
 * (shared/channels/ivs-event-handling.ts) and logs the outcome as one line. An invalid document
 * (or recording metadata that is not the documented JSON) is logged and dropped, not thrown: it
 * would fail the same way on every retry (Lambda's asynchronous retries, then the failure
 * destination). Errors of DynamoDB and S3 (a recording's metadata not there yet) do throw, so
 * those events are retried.
 */
export const handler = worker(
  ivsEventRow,
  async (event: unknown) => {
    const result = await handleIvsEvent(event);
    if (result.kind === 'limit-breach') recordMetric('ivs_limit_breaches');
    return result;
  },
  (result, event) => {
    const { id, 'detail-type': detailType } = (event ?? {}) as { id?: unknown; 'detail-type'?: unknown };
    return {
      level: isWarning(result) ? 'warn' : 'info',
      message: 'ivs event',
      fields: { eventId: id, detailType, ...result },
    };
  },
);
