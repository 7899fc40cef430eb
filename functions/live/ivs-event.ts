import { type IvsOutcome, applyIvsEvent } from '../../shared/live/channel-state.ts';
import { parseIvsEvent } from '../../shared/live/ivs-events.ts';
import { metrics, recordMetric } from '../../shared/observability/index.ts';

type Result = IvsOutcome | { kind: 'invalid'; error: string };

/** What an operator should look at; session and takeover events are ignored routinely. */
const isWarning = (result: Result) =>
  ['invalid', 'recording-failed', 'limit-breach'].includes(result.kind) ||
  (result.kind === 'ignored' && result.reason === 'unknown-channel');

/**
 * The target of the EventBridge rule on `aws.ivs` (one IVS document per invocation): applies it
 * to the creator's live state (docs/ivs-events.md) and logs the outcome as one JSON line.
 * An invalid document is logged and dropped, not thrown: it would fail the same way on every
 * retry (Lambda's asynchronous retries, then the failure destination), so throwing only delays
 * and repeats the same log line. Errors of DynamoDB do throw, so those events are retried.
 */
export const handler = async (event: unknown): Promise<Result> => {
  const parsed = parseIvsEvent(event);
  const result: Result = parsed.ok
    ? await applyIvsEvent(parsed.event)
    : { kind: 'invalid', error: parsed.error };
  const { id, 'detail-type': detailType } = (event ?? {}) as { id?: unknown; 'detail-type'?: unknown };
  const level = isWarning(result) ? 'WARN' : 'INFO';
  console.log(JSON.stringify({ level, message: 'ivs event', eventId: id, detailType, ...result }));
  if (result.kind === 'limit-breach') {
    recordMetric('ivs_limit_breaches');
    metrics.publishStoredMetrics();
  }
  return result;
};
