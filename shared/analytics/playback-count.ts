import { randomBytes } from 'node:crypto';
import { addPlayedSeconds, createPlayback, markPlaybackCounted } from './playback-repository.ts';

/**
 * The view-counting rule (docs/projections.md, "Counters"; docs/analytics.md "Sessions the
 * platform started"): an on-demand view counts once per analytics session that the platform
 * started (`session/start` issued its `session_id`) and whose heartbeats and end report at least
 * VIEW_SECONDS of actual playback (`playing_seconds`, summed), for the episode the session started
 * with. The session's playback item is the source item of that view: written by `session/start`;
 * when its sum first reaches the threshold it gets `counted_at` (once: a conditional write), and
 * the projector counts the view (shared/projection/counters.ts). Anonymous sessions count too;
 * seeking does not count, only playing time does.
 *
 * What a client cannot do (issue 33): a heartbeat for a session id the platform never issued, for
 * another episode than the session's, or from another account than the one that started it (a
 * session started signed in) counts nothing; and a session's counted playing time never exceeds
 * the wall time since its start plus PLAYING_SLACK_SECONDS (a beat that would pass it counts
 * nothing). Such beats are still answered 200 and kept in the analytics store (raw events), and
 * counted in the `playback_not_counted` metric.
 *
 * The session id is a UUIDv7: its first 48 bits are the start's receive time (epoch ms), so a
 * heartbeat knows the session's age without a read, and one conditional UpdateItem both checks the
 * session and adds the time.
 * The playback item is shared/analytics/playback-repository.ts's; it expires two days after its
 * last heartbeat.
 */
export const VIEW_SECONDS = 30;
/** Network and timer jitter allowed on top of the wall time since the session started. */
export const PLAYING_SLACK_SECONDS = 5;

const expiry = (now: Date) => Math.floor(now.getTime() / 1000) + 2 * 86_400;

/** A new session id for a start received at `at`: a UUIDv7 (RFC 9562), its time `at`. */
export const newSessionId = (at: Date): string => {
  const bytes = randomBytes(16);
  bytes.writeUIntBE(at.getTime(), 0, 6);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x70;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};

/** When the session `sessionId` started (epoch ms), or undefined for an id the platform did not issue. */
export const sessionStartOf = (sessionId: string): number | undefined =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i.test(sessionId)
    ? Number.parseInt(sessionId.replace(/-/g, '').slice(0, 12), 16)
    : undefined;

/** `session/start` of an on-demand playback: its playback item (nothing played yet). */
export const openPlayback = async (
  sessionId: string,
  contentId: string,
  accountId: string | undefined,
  now: Date,
): Promise<void> => createPlayback(sessionId, { contentId, accountId, expiresAt: expiry(now) });

/**
 * Adds `seconds` of playback to a session the platform started, for its episode and its account;
 * marks it counted when the sum first reaches VIEW_SECONDS. One conditional UpdateItem per
 * heartbeat, a second one only at the crossing. Resolves `false` when nothing was counted because
 * the beat was not the session's (unknown, foreign) or would pass its wall-time budget.
 */
export const recordPlayback = async (
  sessionId: string,
  contentId: string,
  accountId: string | undefined,
  seconds: number,
  now: Date,
): Promise<boolean> => {
  if (!(seconds > 0)) return true;
  const started = sessionStartOf(sessionId);
  if (started === undefined) return false;
  const budget = (now.getTime() - started) / 1000 + PLAYING_SLACK_SECONDS;
  if (seconds > budget) return false;
  const session = await addPlayedSeconds(sessionId, {
    contentId,
    accountId,
    seconds,
    room: budget - seconds,
    expiresAt: expiry(now),
  });
  if (!session) return false;
  if (Number(session.played) < VIEW_SECONDS || session.counted_at !== undefined) return true;
  await markPlaybackCounted(sessionId, now);
  return true;
};
