import { applyIvsEvent, type IvsOutcome } from './channel-state.ts';
import { parseIvsEvent } from './ivs-events.ts';
import { noteRecordingStarted, publishRecording, type RecordingOutcome } from './recordings.ts';

/** What one IVS document led to: its live-state or recording outcome, or why it was invalid. */
export type IvsEventResult = IvsOutcome | RecordingOutcome | { kind: 'invalid'; error: string };

/** Whether an operator should look at a result; session and takeover events are routine. */
export const isWarning = (result: IvsEventResult): boolean =>
  ['invalid', 'recording-failed', 'recording-dropped', 'recording-ignored', 'limit-breach'].includes(
    result.kind,
  ) ||
  (result.kind === 'ignored' && result.reason === 'unknown-channel');

/**
 * One IVS document (docs/ivs-events.md): parsed, applied to the creator's live state, then the
 * recordings acted on (the DVR playlist at Recording Start, the on-demand item at Recording End,
 * shared/channels/recordings.ts). An invalid document is a result, not an error; DynamoDB and S3
 * errors throw, so the event is retried.
 */
export const handleIvsEvent = async (event: unknown): Promise<IvsEventResult> => {
  const parsed = parseIvsEvent(event);
  if (!parsed.ok) return { kind: 'invalid', error: parsed.error };
  const outcome = await applyIvsEvent(parsed.event);
  if (outcome.kind === 'recording-started') return noteRecordingStarted(outcome, outcome.startedMs);
  if (outcome.kind === 'recording-ended') return publishRecording(outcome);
  return outcome;
};
