import { loadMediaSigner } from '../playback/media-key.ts';
import { randomUUID } from 'node:crypto';
import type { CreatorRecord } from '../catalog/model.ts';
import { requireCreator } from '../creators/creator-repository.ts';
import { getRelationship, grantsAccess } from '../creators/relationship-repository.ts';
import { heartbeatEpg, watchEpg } from '../epg/schedule.ts';
import { formatCount, formatDuration } from '../format.ts';
import {
  ConflictError,
  ForbiddenError,
  HttpError,
  NotFoundError,
  TooManyRequestsError,
} from '../http/errors.ts';
import { revokeViewerSession } from '../ivs/revocation.ts';
import { recordMetric } from '../observability/index.ts';
import { signPlaybackToken } from '../playback/ivs-token.ts';
import {
  endSession,
  getSession,
  heartbeatSession,
  openSession,
  openSessionOn,
  updateLiveSession,
  type WatchSessionRecord,
} from './session-repository.ts';
import type {
  ChangeWatchBody,
  Heartbeat,
  LiveChannel,
  LiveChannelStatus,
  LivePlayback,
  LiveQualities,
  LiveStreamMetadata,
  LiveViewerStats,
  LiveViewers,
  OpenWatchBody,
  StreamQuery,
  WatchEnded,
  WatchQualityChanged,
  WatchStarted,
} from './schemas.ts';
import {
  QUALITY_OPTIONS,
  streamHealthOf,
  streamMetadata,
  streamSummary,
  streamUrls,
} from './stream-views.ts';
import { bucketOf, channelAudience, countPresence } from './viewer-counter.ts';

/** Seconds between heartbeats (spec 8) and how long a session lives without one (3 missed beats). */
export const HEARTBEAT_SECONDS = 30;
export const SESSION_TTL_SECONDS = 90;
export const maxConcurrentStreams = () => Number(process.env.MAX_CONCURRENT_STREAMS ?? 3);

const isoPlus = (now: Date, seconds: number) => new Date(now.getTime() + seconds * 1000).toISOString();

/** The session is gone for good: 410 with a message saying why (ended or expired). */
export class SessionGoneError extends HttpError {
  constructor(reason: 'ended' | 'expired') {
    super(410, 'SESSION_GONE', `Watch session ${reason}; open a new one with POST /live/watch`);
  }
}

/** Without an open watch session there is no playback token (409). */
const NO_SESSION =
  'Open a watch session first (POST /creators/{id}/channel/live/watch): playback tokens belong to one';

/** The caller's own session, or 404 (another account's session is indistinguishable from none). */
const ownSession = async (
  accountId: string,
  creator: CreatorRecord,
  sessionId: string,
): Promise<WatchSessionRecord> => {
  const session = await getSession(sessionId);
  if (!session || session.account_id !== accountId || session.creator_id !== creator.id) {
    throw new NotFoundError('Watch session not found');
  }
  return session;
};

const stateOf = (session: WatchSessionRecord, now: Date): 'active' | 'ended' | 'expired' =>
  session.ended_at ? 'ended' : Date.parse(session.expires_at) <= now.getTime() ? 'expired' : 'active';

/** Viewers of a channel now, with today's and all-time peaks raised as needed. */
export const channelViewers = async (
  creator: CreatorRecord,
  now: Date,
): Promise<LiveViewerStats & { delta: number }> => {
  const { current, previous, peaks } = await channelAudience(creator.channel.channel_id, now);
  const peakAllTime = Math.max(peaks.allTime, creator.peak_all_time);
  return {
    watching_now: current.total,
    watching_now_formatted: formatCount(current.total),
    peak_today: peaks.today,
    peak_today_formatted: formatCount(peaks.today),
    peak_all_time: peakAllTime,
    peak_all_time_formatted: formatCount(peakAllTime),
    by_device: current.byDevice,
    delta: current.total - previous.total,
  };
};

const channelView = (creator: CreatorRecord, watching?: number): LiveChannel => ({
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
      is_subscribed: grantsAccess(relationship.subscription, now),
    },
  };
};

/** The live creator on its IVS channel, or 404 when it has no live stream (spec 7). */
const requireLive = async (creatorId: string) => {
  const creator = await requireCreator(creatorId);
  if (!creator.live || !creator.ivs) throw new NotFoundError('No active live stream for this creator');
  return creator as CreatorRecord & {
    live: NonNullable<CreatorRecord['live']>;
    ivs: NonNullable<CreatorRecord['ivs']>;
  };
};

/** 403 unless the channel is open or the account holds a subscription that grants access now. */
const requireAccess = async (creator: CreatorRecord, accountId: string, now: Date) => {
  if (!creator.channel.requires_subscription) return;
  const { subscription } = await getRelationship(accountId, creator.id);
  if (!grantsAccess(subscription, now))
    throw new ForbiddenError('This channel requires an active subscription');
};

/**
 * `GET /live/stream`: playback URLs with a token of the caller's open watch session on this
 * stream (a token belongs to a session, so the concurrent-stream limit bounds what an account can
 * play); 409 without one.
 */
export const liveStream = async (
  creatorId: string,
  accountId: string,
  q: StreamQuery,
  now: Date,
): Promise<LivePlayback> => {
  const creator = await requireLive(creatorId);
  await requireAccess(creator, accountId, now);
  const session = await openSessionOn(
    accountId,
    creator.id,
    creator.live.stream_id,
    maxConcurrentStreams(),
    now,
  );
  if (!session) throw new ConflictError(NO_SESSION);
  const { token, urls } = await playback(session, creator, now);
  const viewers = await channelViewers(creator, now);
  return {
    stream_id: creator.live.stream_id,
    is_live: true,
    quality: q.quality,
    stream_url: q.dvr ? urls.dvr_url : urls.stream_url,
    dvr_url: urls.dvr_url,
    thumbnail_url: urls.thumbnail_url,
    token: token.token,
    token_expires_at: token.expiresAt,
    watching_now: viewers.watching_now,
    watching_now_formatted: viewers.watching_now_formatted,
    available_qualities: QUALITY_OPTIONS.map((o) => o.label),
  };
};

/** `GET /live/viewers`. */
export const liveViewers = async (creatorId: string, now: Date): Promise<LiveViewers> => {
  const creator = await requireCreator(creatorId);
  const { delta: _delta, ...viewers } = await channelViewers(creator, now);
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

/** `GET /live/qualities`: the caller's session's quality and the options. */
export const liveQualities = async (
  creatorId: string,
  accountId: string,
  sessionId: string,
): Promise<LiveQualities> => {
  const creator = await requireCreator(creatorId);
  const session = await ownSession(accountId, creator, sessionId);
  return {
    session_id: session.session_id,
    current_quality: session.quality,
    available_qualities: [...QUALITY_OPTIONS],
  };
};

/** `aws:viewer-session-version` of a session: its start in epoch seconds (ivs-token.ts). */
const sessionVersionOf = (session: WatchSessionRecord) => Math.floor(Date.parse(session.started_at) / 1000);

/** The session's playback token and URLs on the creator's IVS channel. */
const playback = async (session: WatchSessionRecord, creator: CreatorRecord, now: Date) => {
  if (!creator.ivs) throw new NotFoundError('No active live stream for this creator');
  const [token, play] = await Promise.all([
    signPlaybackToken(
      {
        channelArn: creator.ivs.channel_arn,
        viewerId: session.account_id,
        sessionVersion: sessionVersionOf(session),
      },
      now,
    ),
    loadMediaSigner(),
  ]);
  return { token, urls: streamUrls(creator, { token: token.token, play }) };
};

/** `POST /live/watch`: opens a session (404 offline, 403 not subscribed, 429 at the stream limit). */
export const startWatching = async (
  creatorId: string,
  accountId: string,
  input: OpenWatchBody,
  now: Date,
): Promise<WatchStarted> => {
  const creator = await requireLive(creatorId);
  if (input.channel_id !== creator.channel.channel_id)
    throw new NotFoundError('Channel not found for this creator');
  await requireAccess(creator, accountId, now);
  const session = await openSession(
    {
      session_id: randomUUID(),
      account_id: accountId,
      creator_id: creator.id,
      channel_id: creator.channel.channel_id,
      stream_id: creator.live.stream_id,
      device_type: input.device_type,
      quality: input.quality,
      timezone: input.timezone,
      started_at: now.toISOString(),
      expires_at: isoPlus(now, SESSION_TTL_SECONDS),
      last_heartbeat_at: now.toISOString(),
      ended_at: null,
      counted_bucket: bucketOf(now), // counted just below
    },
    maxConcurrentStreams(),
    now,
  );
  if (!session) {
    throw new TooManyRequestsError(
      `Maximum of ${maxConcurrentStreams()} concurrent streams reached; end another session first`,
      'concurrent_streams',
    );
  }
  await countPresence(creator.channel.channel_id, input.device_type, now);
  recordMetric('watch_sessions_opened');
  const { token, urls } = await playback(session, creator, now);
  const [viewers, epg] = await Promise.all([
    channelViewers(creator, now),
    watchEpg(creator, input.timezone, now),
  ]);
  return {
    session: {
      session_id: session.session_id,
      started_at: session.started_at,
      expires_at: session.expires_at,
      heartbeat_interval_seconds: HEARTBEAT_SECONDS,
      device_type: session.device_type,
    },
    stream: {
      stream_id: creator.live.stream_id,
      stream_url: urls.stream_url,
      dvr_url: urls.dvr_url,
      thumbnail_url: urls.thumbnail_url,
      quality: session.quality,
      token: token.token,
      token_expires_at: token.expiresAt,
      latency_mode: 'low',
      health: streamHealthOf(creator),
      available_qualities: QUALITY_OPTIONS.filter((o) => 'bitrate_kbps' in o).map((o) => ({
        label: o.label,
        bitrate_kbps: 'bitrate_kbps' in o ? o.bitrate_kbps : 0,
      })),
    },
    channel: channelView(creator, viewers.watching_now),
    creator: { id: creator.id, name: creator.name, is_verified: creator.is_verified },
    viewers: {
      watching_now: viewers.watching_now,
      watching_now_formatted: viewers.watching_now_formatted,
      peak_today: viewers.peak_today,
      peak_today_formatted: viewers.peak_today_formatted,
    },
    epg,
  };
};

/** `PATCH /live/watch`: changes quality (and device); refreshes the playback token. 410 when gone. */
export const changeQuality = async (
  creatorId: string,
  accountId: string,
  input: ChangeWatchBody,
  now: Date,
): Promise<WatchQualityChanged> => {
  const creator = await requireCreator(creatorId);
  const session = await ownSession(accountId, creator, input.session_id);
  const state = stateOf(session, now);
  if (state !== 'active') throw new SessionGoneError(state);
  const changed = {
    quality: input.quality,
    ...(input.device_type ? { device_type: input.device_type } : {}),
  };
  if (!(await updateLiveSession(session, changed, now))) throw new SessionGoneError('expired');
  const { token, urls } = await playback(session, creator, now);
  return {
    session_id: session.session_id,
    quality: input.quality,
    stream_url: urls.stream_url,
    token: token.token,
    token_expires_at: token.expiresAt,
  };
};

/**
 * `GET /live/heartbeat`: extends a live session by SESSION_TTL_SECONDS and refreshes its token.
 * An ended or expired session answers 200 with `session_valid: false` and a `reason`, no token.
 * The viewer is counted once per 30-second bucket: a heartbeat in a bucket the session was
 * already counted in (by its open or an earlier heartbeat) is answered the same but not counted.
 */
export const heartbeat = async (
  creatorId: string,
  accountId: string,
  sessionId: string,
  now: Date,
): Promise<Heartbeat> => {
  const creator = await requireCreator(creatorId);
  const session = await ownSession(accountId, creator, sessionId);
  const state = stateOf(session, now);
  const expiresAt = isoPlus(now, SESSION_TTL_SECONDS);
  const outcome =
    state === 'active'
      ? await heartbeatSession(
          session,
          { expires_at: expiresAt, last_heartbeat_at: now.toISOString() },
          now,
          bucketOf(now),
        )
      : 'gone';
  if (outcome === 'gone') {
    return {
      session_id: session.session_id,
      session_valid: false,
      reason: state === 'ended' ? 'ended' : 'expired',
      expires_at: session.expires_at,
    };
  }
  if (outcome === 'counted') await countPresence(session.channel_id, session.device_type, now);
  else recordMetric('heartbeats_not_counted');
  const { token } = await playback(session, creator, now);
  const [viewers, epg] = await Promise.all([
    channelViewers(creator, now),
    heartbeatEpg(creator, session.timezone, now),
  ]);
  recordMetric('concurrent_viewers', viewers.watching_now);
  return {
    session_id: session.session_id,
    session_valid: true,
    expires_at: expiresAt,
    next_heartbeat_seconds: HEARTBEAT_SECONDS,
    stream: {
      stream_id: session.stream_id,
      is_live: creator.live !== null,
      health: streamHealthOf(creator),
      token: token.token,
      token_expires_at: token.expiresAt,
    },
    viewers: {
      watching_now: viewers.watching_now,
      watching_now_formatted: viewers.watching_now_formatted,
      delta: viewers.delta,
    },
    epg,
  };
};

/**
 * `DELETE /live/watch`: ends the session and reports the watch time. Idempotent: an ended session
 * reports its recorded end; an expired one ends at its expiry (the viewer stopped heartbeating).
 */
export const stopWatching = async (
  creatorId: string,
  accountId: string,
  sessionId: string,
  now: Date,
): Promise<{ message: string; data: WatchEnded }> => {
  const creator = await requireCreator(creatorId);
  const session = await ownSession(accountId, creator, sessionId);
  const state = stateOf(session, now);
  const endedAt = session.ended_at ?? (state === 'expired' ? session.expires_at : now.toISOString());
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
