import { accountKeyOf } from './pseudonym.ts';
import type { Sender } from './ingest.ts';
import { logger, recordMetric } from '../observability/index.ts';
import { getEpisode } from '../shows/show-repository.ts';
import { ingest } from './ingest.ts';
import { recordPlayback } from './playback-count.ts';
import { clearProgress, listProgress, saveProgress } from './progress-repository.ts';
import type { AnalyticsReceipt, ContinueWatchingItem, VideoEndBody, VideoHeartbeatBody } from './schemas.ts';

/** An episode is finished past 90% or within its last 5 minutes; then it leaves the list. */
export const isFinished = (position: number, duration: number) =>
  position >= duration * 0.9 || duration - position <= 300;

/** Records a signed-in viewer's playhead from a video heartbeat or session end. */
export const trackProgress = async (accountId: string, contentId: string, position: number, now: Date) => {
  const episode = await getEpisode(contentId);
  if (!episode) return; // not a catalogue episode (e.g. a trailer): nothing to resume
  if (isFinished(position, episode.duration_seconds)) return clearProgress(accountId, contentId);
  await saveProgress({
    account_id: accountId,
    content_id: contentId,
    show_id: episode.show_id,
    title: episode.title,
    thumbnail_url: episode.thumbnail_url,
    position_seconds: Math.floor(position),
    duration_seconds: episode.duration_seconds,
    updated_at: now.toISOString(),
  });
};

/**
 * A video heartbeat or session end: the event goes to the sink first, then its playing time is
 * added to the session's playback (the view count, shared/analytics/playback-count.ts: only for a
 * session the platform started, its episode and account, within its wall time) and, for a
 * signed-in viewer, the continue-watching playhead is recorded. Both are side effects. The playhead is a side effect: when it
 * cannot be written (DynamoDB throttling, an outage, a missing grant) the request still succeeds
 * and the event is not lost; the failure is logged (error name only: no ids, no token) and counted
 * in the `progress_write_failures` metric. Nothing is retried: the next heartbeat writes it again.
 */
export const ingestPlayhead = async (
  event: (VideoHeartbeatBody & { type: 'heartbeat' }) | (VideoEndBody & { type: 'end' }),
  context: Sender,
): Promise<AnalyticsReceipt> => {
  const result = await ingest('video', [event], context);
  try {
    const { session_id, content_id, playing_seconds } = event;
    if (
      !(await recordPlayback(
        session_id,
        content_id,
        await accountKeyOf(context.accountId),
        playing_seconds ?? 0,
        context.now,
      ))
    )
      recordMetric('playback_not_counted');
  } catch (error) {
    logger.warn('Playback time not counted', { error: error instanceof Error ? error.name : 'unknown' });
    recordMetric('playback_count_failures');
  }
  if (context.accountId) {
    try {
      await trackProgress(context.accountId, event.content_id, event.position_seconds, context.now);
    } catch (error) {
      logger.warn('Continue-watching progress not saved', {
        error: error instanceof Error ? error.name : 'unknown',
      });
      recordMetric('progress_write_failures');
    }
  }
  return result;
};

/** `GET /me/continue-watching`: unfinished episodes, most recently watched first. */
export const listContinueWatching = async (
  accountId: string,
  limit: number,
): Promise<ContinueWatchingItem[]> =>
  (await listProgress(accountId, limit)).map((p) => ({
    content_id: p.content_id,
    show_id: p.show_id,
    title: p.title,
    thumbnail_url: p.thumbnail_url,
    position_seconds: p.position_seconds,
    duration_seconds: p.duration_seconds,
    progress_percent: Math.floor((p.position_seconds / p.duration_seconds) * 100),
    updated_at: p.updated_at,
  }));
