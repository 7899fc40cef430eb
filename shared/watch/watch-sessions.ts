import type { CreatorRecord } from '../catalog/model.ts';
import { type PublishedCreator, requireCreator } from '../creators/creator-repository.ts';
import { getRelationship } from '../creators/relationship-repository.ts';
import { grants } from '../entitlements/entitlement-repository.ts';
import { formatCount, formatDuration } from '../format.ts';
import { GoneError, NotFoundError } from '../errors/errors.ts';
import { revokeViewerSession } from '../ivs/revocation.ts';
import {
  endSession,
  getSession,
  maxConcurrentStreams,
  type WatchSessionRecord,
} from '../audience/session-repository.ts';

export { maxConcurrentStreams };
import type {
  LiveChannel,
  LiveChannelStatus,
  LiveQualities,
  LiveStreamMetadata,
  LiveViewerStats,
  LiveViewers,
  WatchEnded,
} from './schemas.ts';
import { QUALITY_OPTIONS, streamMetadata, streamSummary } from './stream-views.ts';
import { perContainer } from '../aws/local-hook.ts';
import { creatorReuseMs, viewerShardsOf } from '../audience/audience-scale.ts';
import { bucketEndMs, channelAudience } from '../audience/viewer-counter.ts';

/**
 * Seconds between heartbeats (spec 8), and how long a session outlives the viewer-count bucket of
 * its last counted heartbeat (3 missed beats): a session's lease runs to SESSION_TTL_SECONDS past
 * the end of the bucket it was last counted in, renewed by the first heartbeat of each bucket
 * (shared/audience/session-repository.ts), so 90 to 90 + BUCKET_SECONDS (270) s after that heartbeat.
 */
export const HEARTBEAT_SECONDS = 30;
export const SESSION_TTL_SECONDS = 90;
/** The lease a session counted in `bucket` holds: SESSION_TTL_SECONDS past the bucket's end. */
export const leaseUntil = (bucket: number) =>
  new Date(bucketEndMs(bucket) + SESSION_TTL_SECONDS * 1000).toISOString();

export const isoPlus = (now: Date, seconds: number) => new Date(now.getTime() + seconds * 1000).toISOString();

/** Where a viewer opens a watch session, as the messages name it. */
const WATCH_PATH = '/creators/{id}/channel/live/watch';

/** The session is gone for good: 410 with a message saying why (ended or expired). */
export const sessionGone = (reason: 'ended' | 'expired') =>
  new GoneError('SESSION_GONE', `Watch session ${reason}; open a new one with POST ${WATCH_PATH}`);

/** Without an open watch session there is no playback token (409). */
export const NO_SESSION = `Open a watch session first (POST ${WATCH_PATH}): playback tokens belong to one`;

/** `session` if it is the caller's on this creator, else 404 (another account's session is indistinguishable from none). */
export const ownedSession = (
  session: WatchSessionRecord | undefined,
  accountId: string,
  creator: CreatorRecord,
): WatchSessionRecord => {
  if (!session || session.account_id !== accountId || session.creator_id !== creator.id) {
    throw new NotFoundError('Watch session not found');
  }
  return session;
};

/**
 * The creator and the caller's own session on it (a strongly consistent read), read in parallel
 * (one round trip, issue 41); 404 for either. With `onAir` (the request's time) the creator is
 * read as `requireCreatorOnAir` reads it (DELETE watch), else afresh.
 */
export const creatorAndOwnSession = async (
  creatorId: string,
  accountId: string,
  sessionId: string,
  onAir?: Date,
): Promise<{ creator: CreatorRecord; session: WatchSessionRecord }> => {
  const [creator, found] = await Promise.all([
    onAir ? requireCreatorOnAir(creatorId, onAir) : requireCreator(creatorId),
    getSession(sessionId),
  ]);
  return { creator, session: ownedSession(found, accountId, creator) };
};

export const stateOf = (session: WatchSessionRecord, now: Date): 'active' | 'ended' | 'expired' =>
  session.ended_at ? 'ended' : Date.parse(session.expires_at) <= now.getTime() ? 'expired' : 'active';

/** Viewers of a channel now, with today's and all-time peaks raised as needed (`maxAgeMs`: channelAudience's). */
export const channelViewers = async (
  creator: CreatorRecord,
  now: Date,
  options?: { maxAgeMs?: number },
): Promise<LiveViewerStats> => {
  const { current, peaks } = await channelAudience(creator.channel.channel_id, now, {
    shards: viewerShardsOf(creator),
    ...options,
  });
  const peakAllTime = Math.max(peaks.allTime, creator.peak_all_time);
  return {
    watching_now: current.total,
    watching_now_formatted: formatCount(current.total),
    peak_today: peaks.today,
    peak_today_formatted: formatCount(peaks.today),
    peak_all_time: peakAllTime,
    peak_all_time_formatted: formatCount(peakAllTime),
    by_device: current.byDevice,
  };
};

/**
 * Viewers as a heartbeat shows them: the count the audience publisher last wrote on the creator
 * item (once a minute, from the live counters: shared/watch/audience-publisher.ts), so a heartbeat
 * reads no counters (docs/cost.md: that read was 25 of a heartbeat's 27.5 read units). Up to about
 * 90 s behind the counters, the same number the live lists show; never below 1 while the channel
 * is live (the caller is watching). `delta`: the last change the publisher saw, 0 once it settles.
 */
export const publishedViewers = (
  creator: PublishedCreator,
): { watching_now: number; watching_now_formatted: string; delta: number } => {
  if (!creator.live) return { watching_now: 0, watching_now_formatted: formatCount(0), delta: 0 };
  const watching = Math.max(creator.watching_now, 1);
  return {
    watching_now: watching,
    watching_now_formatted: formatCount(watching),
    delta: creator.watching_now - (creator.watching_previous ?? creator.watching_now),
  };
};

export const channelView = (creator: CreatorRecord, watching?: number): LiveChannel => ({
  channel_id: creator.channel.channel_id,
  channel_name: creator.channel.channel_name,
  channel_number: creator.channel.channel_number,
  is_live: creator.live !== null,
  ...(creator.live && watching !== undefined
    ? { watching_now: watching, watching_now_formatted: formatCount(watching) }
    : {}),
  stream: streamSummary(creator),
});

/** `GET /creators/:id/channel/live`. */
export const liveChannel = async (
  creatorId: string,
  accountId: string | undefined,
  now: Date,
): Promise<LiveChannelStatus> => {
  const creator = await requireCreator(creatorId);
  if (!creator.live) {
    return {
      creator_id: creator.id,
      is_live: false,
      channel: channelView(creator),
      message: `${creator.name} is offline right now. Check the schedule for what's on next.`,
    };
  }
  const [viewers, relationship] = await Promise.all([
    channelViewers(creator, now),
    getRelationship(accountId, creator.id),
  ]);
  return {
    creator_id: creator.id,
    creator_name: creator.name,
    is_live: true,
    channel: channelView(creator, viewers.watching_now),
    user_state: {
      is_following: relationship.is_following,
      is_subscribed: grants(relationship.subscription, now),
    },
  };
};

/** The live creator on its IVS channel, or 404 when it has no live stream (spec 7); read as `requireCreatorOnAir`. */
export const requireLive = async (creatorId: string, now: Date) => {
  const creator = await requireCreatorOnAir(creatorId, now);
  if (!creator.live || !creator.ivs) throw new NotFoundError('No active live stream for this creator');
  return creator as CreatorRecord & {
    live: NonNullable<CreatorRecord['live']>;
    ivs: NonNullable<CreatorRecord['ivs']>;
  };
};

/** The creator items this container read on the live paths, and when (see `requireCreatorOnAir`). */
const onAir = /* @__PURE__ */ perContainer(() => new Map<string, { creator: CreatorRecord; at: number }>());

/**
 * The creator as the live paths need it (watch open and DELETE, heartbeat, live reaction, `/live/stream`;
 * 404 when unknown): read again unless
 * this container read it less than `creatorReuseMs` ago (5 s from 50,000 viewers, else never
 * reused), so on a big channel reads of its one creator item follow warm containers, not viewers
 * (docs/capacity.md).
 */
export const requireCreatorOnAir = async (creatorIdOrSlug: string, now: Date): Promise<CreatorRecord> => {
  const known = onAir().get(creatorIdOrSlug);
  const age = known ? now.getTime() - known.at : -1;
  if (known && age >= 0 && age < creatorReuseMs(known.creator)) return known.creator;
  const creator = await requireCreator(creatorIdOrSlug);
  onAir().set(creatorIdOrSlug, { creator, at: now.getTime() });
  return creator;
};

/** `GET /live/viewers`. */
export const liveViewers = async (creatorId: string, now: Date): Promise<LiveViewers> => {
  const creator = await requireCreator(creatorId);
  const viewers = await channelViewers(creator, now);
  return {
    creator_id: creator.id,
    channel_id: creator.channel.channel_id,
    is_live: creator.live !== null,
    viewers,
  };
};

/** `GET /live/metadata`. */
export const liveMetadata = async (creatorId: string, now: Date): Promise<LiveStreamMetadata> =>
  streamMetadata(await requireCreator(creatorId), now);

/** `aws:viewer-session-version` of a session: its start in epoch seconds (ivs-token.ts). */
export const sessionVersionOf = (session: WatchSessionRecord) =>
  Math.floor(Date.parse(session.started_at) / 1000);

/** `GET /live/qualities`: the caller's session's quality and the options; 410 once the session ended or expired, as PATCH. */
export const liveQualities = async (
  creatorId: string,
  accountId: string,
  sessionId: string,
  now: Date,
): Promise<LiveQualities> => {
  const { session } = await creatorAndOwnSession(creatorId, accountId, sessionId);
  const state = stateOf(session, now);
  if (state !== 'active') throw sessionGone(state);
  return {
    session_id: session.session_id,
    current_quality: session.quality,
    available_qualities: [...QUALITY_OPTIONS],
  };
};

/**
 * `DELETE /live/watch`: ends the session and reports the watch time. Idempotent: an ended session
 * reports its recorded end; an expired one ends where its lease began, the end of the bucket it
 * was last counted in (the viewer stopped heartbeating in it).
 */
export const stopWatching = async (
  creatorId: string,
  accountId: string,
  sessionId: string,
  now: Date,
): Promise<{ message: string; data: WatchEnded }> => {
  const { creator, session } = await creatorAndOwnSession(creatorId, accountId, sessionId, now);
  const state = stateOf(session, now);
  // A lapsed session watched until the end of the bucket it was last counted in (its lease's start).
  const endedAt =
    session.ended_at ??
    (state === 'expired' ? isoPlus(new Date(session.expires_at), -SESSION_TTL_SECONDS) : now.toISOString());
  if (state !== 'ended') await endSession(session, endedAt);
  // The player keeps playing what IVS already authorized: revoke this session's playback too.
  if (state === 'active' && creator.ivs)
    await revokeViewerSession(creator.ivs.channel_arn, session.account_id, sessionVersionOf(session));
  const seconds = Math.max(0, Math.round((Date.parse(endedAt) - Date.parse(session.started_at)) / 1000));
  return {
    message: state === 'active' ? 'Watch session ended' : `Watch session had already ${state}`,
    data: {
      session_id: session.session_id,
      watch_duration_seconds: seconds,
      watch_duration_formatted: formatDuration(seconds),
      ended_at: endedAt,
    },
  };
};
