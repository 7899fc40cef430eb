import { type IvsOutcome, applyIvsEvent } from '../../shared/live/channel-state.ts';
import { parseIvsEvent } from '../../shared/live/ivs-events.ts';
import {
  noteRecordingStarted,
  publishRecording,
  type RecordingOutcome,
} from '../../shared/live/recordings.ts';
import { metrics, recordMetric } from '../../shared/observability/index.ts';

type Result = IvsOutcome | RecordingOutcome | { kind: 'invalid'; error: string };

/** What an operator should look at; session and takeover events are ignored routinely. */
const isWarning = (result: Result) =>
  ['invalid', 'recording-failed', 'recording-dropped', 'recording-ignored', 'limit-breach'].includes(
    result.kind,
  ) ||
  (result.kind === 'ignored' && result.reason === 'unknown-channel');

/** Recordings: the DVR playlist at the start, the on-demand item at the end (shared/live/recordings.ts). */
const actOn = async (outcome: IvsOutcome): Promise<Result> => {
  if (outcome.kind === 'recording-started') return noteRecordingStarted(outcome, outcome.startedMs);
  if (outcome.kind === 'recording-ended') return publishRecording(outcome);
  return outcome;
};

/**
 * The target of the EventBridge rule on `aws.ivs` (one IVS document per invocation): applies it
 * to the creator's live state (docs/ivs-events.md), acts on recordings, and logs the outcome as
 * one JSON line. An invalid document (or recording metadata that is not the documented JSON) is
 * logged and dropped, not thrown: it would fail the same way on every retry (Lambda's
 * asynchronous retries, then the failure destination), so throwing only delays and repeats the
 * same log line. Errors of DynamoDB and S3 (a recording's metadata not there yet) do throw, so
 * those events are retried.
 */
export const handler = async (event: unknown): Promise<Result> => {
  const parsed = parseIvsEvent(event);
  const result: Result = parsed.ok
    ? await actOn(await applyIvsEvent(parsed.event))
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
