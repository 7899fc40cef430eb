import { randomInt, randomUUID } from 'node:crypto';
import type { CreatorRecord } from '../catalog/model.ts';
import { heartbeatEpg, watchEpg } from '../epg/on-air.ts';
import { ConflictError, NotFoundError, TooManyRequestsError } from '../errors/errors.ts';
import { recordMetric } from '../observability/index.ts';
import { signPlaybackToken } from '../playback/ivs-token.ts';
import { loadMediaSigner } from '../playback/media-key.ts';
import {
  channelView,
  channelViewers,
  publishedViewers,
  HEARTBEAT_SECONDS,
  leaseUntil,
  maxConcurrentStreams,
  NO_SESSION,
  ownedSession,
  creatorAndOwnSession,
  requireCreatorOnAir,
  requireLive,
  sessionVersionOf,
  sessionGone,
  stateOf,
} from './watch-sessions.ts';
import { checkAccess, requireAccess, subscriptionOf } from '../entitlements/channel-access.ts';
import {
  getSession,
  heartbeatSession,
  openSession,
  openSessionOn,
  readSlotItems,
  updateLiveSession,
  type WatchSessionRecord,
} from '../audience/session-repository.ts';
import type {
  ChangeWatchBody,
  Heartbeat,
  LivePlayback,
  OpenWatchBody,
  StreamQuery,
  WatchQualityChanged,
  WatchStarted,
} from './schemas.ts';
import { QUALITY_OPTIONS, streamHealthOf, streamUrls } from './stream-views.ts';
import { viewerShardsOf } from '../audience/audience-scale.ts';
import {
  bucketOf,
  bucketStartSeconds,
  countPresence,
  readAudienceAhead,
} from '../audience/viewer-counter.ts';

/**
 * The watch flow that plays: opening a session, changing its quality, its heartbeats and
 * `GET /live/stream`, each answering the session's playback URLs (an IVS playback token, the DVR
 * signed for the media CDN). Apart from shared/watch/watch-sessions.ts (the channel's status, viewers,
 * metadata, qualities and ending a session) so that only these four functions carry the
 * signing code and the Secrets Manager client (bench/ bundle budgets).
 */

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
  const [creator, slots, subscription] = await Promise.all([
    requireLive(creatorId, now),
    readSlotItems(accountId, maxConcurrentStreams()),
    subscriptionOf(accountId, creatorId),
  ]);
  await checkAccess(creator, accountId, creatorId, subscription, now);
  const [session, viewers] = await Promise.all([
    openSessionOn(creator.id, creator.live.stream_id, slots, now),
    channelViewers(creator, now),
  ]);
  if (!session) throw new ConflictError(NO_SESSION);
  const { token, urls } = await playback(session, creator, now);
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

/** The session's playback token on the creator's IVS channel. */
const sessionToken = (session: WatchSessionRecord, creator: CreatorRecord, now: Date) => {
  if (!creator.ivs) throw new NotFoundError('No active live stream for this creator');
  return signPlaybackToken(
    {
      channelArn: creator.ivs.channel_arn,
      viewerId: session.account_id,
      sessionVersion: sessionVersionOf(session),
    },
    now,
  );
};

/** The session's playback token and URLs (the DVR signed for the media CDN). */
const playback = async (session: WatchSessionRecord, creator: CreatorRecord, now: Date) => {
  const [token, play] = await Promise.all([sessionToken(session, creator, now), loadMediaSigner()]);
  return { token, urls: streamUrls(creator, { token: token.token, play }) };
};

/**
 * `POST /live/watch`: opens a session (404 offline, 403 not subscribed, 429 at the stream limit).
 * Three dependent round trips to the table (issue 41, bench/phases.ts): the creator, the account's
 * stream slots, its subscription, the channel's audience and its programs, all read at once (the
 * channel's from the id in the body, used only once it proved to be the creator's); one
 * transaction claiming a slot (shared/audience/session-repository.ts); the viewer's count, with any
 * peak it raises.
 */
export const startWatching = async (
  creatorId: string,
  accountId: string,
  input: OpenWatchBody,
  now: Date,
): Promise<WatchStarted> => {
  const channelId = input.channel_id;
  const [creator, slots, subscription, audience, epg] = await Promise.all([
    requireLive(creatorId, now),
    readSlotItems(accountId, maxConcurrentStreams()),
    subscriptionOf(accountId, creatorId),
    readAudienceAhead(channelId, now),
    watchEpg({ channel: { channel_id: channelId } }, input.timezone, now),
  ]);
  if (channelId !== creator.channel.channel_id) throw new NotFoundError('Channel not found for this creator');
  await checkAccess(creator, accountId, creatorId, subscription, now);
  const opened = await openSession(
    {
      session_id: randomUUID(),
      account_id: accountId,
      creator_id: creator.id,
      channel_id: channelId,
      stream_id: creator.live.stream_id,
      device_type: input.device_type,
      quality: input.quality,
      timezone: input.timezone,
      started_at: now.toISOString(),
      expires_at: leaseUntil(bucketOf(now)),
      last_heartbeat_at: now.toISOString(),
      ended_at: null,
      counted_from: bucketStartSeconds(bucketOf(now)), // counted just below, or by the slot's last holder
    },
    maxConcurrentStreams(),
    now,
    slots,
  );
  if (!opened) {
    throw new TooManyRequestsError(
      `Maximum of ${maxConcurrentStreams()} concurrent streams reached; end another session first`,
      'concurrent_streams',
    );
  }
  const { session, counted } = opened;
  const shards = viewerShardsOf(creator);
  audience.keep(counted ? input.device_type : undefined); // with this viewer when counted below
  const [, { token, urls }, viewers] = await Promise.all([
    counted ? countPresence(channelId, input.device_type, now, shards) : undefined,
    playback(session, creator, now),
    channelViewers(creator, now),
  ]);
  recordMetric('watch_sessions_opened');
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
  const { creator, session } = await creatorAndOwnSession(creatorId, accountId, input.session_id);
  const state = stateOf(session, now);
  if (state !== 'active') throw sessionGone(state);
  const changed = {
    quality: input.quality,
    ...(input.device_type ? { device_type: input.device_type } : {}),
  };
  if (!(await updateLiveSession(session, changed, now))) throw sessionGone('expired');
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
 * `GET /live/heartbeat`: keeps a live session and refreshes its token. An ended or expired session
 * answers 200 with `session_valid: false` and a `reason`, no token. The first heartbeat of a
 * viewer-count bucket counts the viewer and renews the session's lease (one write each); the
 * others of that bucket write nothing (docs/cost.md) and answer the lease as it stands. On a gated
 * channel that first heartbeat checks the subscription again (403, nothing written, once it no
 * longer grants).
 */
export const heartbeat = async (
  creatorId: string,
  accountId: string,
  sessionId: string,
  now: Date,
): Promise<Heartbeat> => {
  // The creator and the session in parallel; the session eventually consistent (getSession).
  const [creator, found] = await Promise.all([
    requireCreatorOnAir(creatorId, now),
    getSession(sessionId, false),
  ]);
  const session = ownedSession(found, accountId, creator);
  const state = stateOf(session, now);
  const bucket = bucketOf(now);
  // The first beat of a bucket claims it and counts the viewer at once (one round trip, issue 41);
  // a claim that fails (ended or beaten by the same session's concurrent beat) takes the count back.
  const claims =
    state === 'active' && (session.counted_from ?? Number.NEGATIVE_INFINITY) < bucketStartSeconds(bucket);
  // Renewing the lease is where a gated channel's paywall applies again (403 as opening, nothing
  // written): else a subscription refunded or expired mid-stream kept its session, and a fresh
  // playback token every beat, for as long as the player beat (docs/live.md "Rules").
  if (claims) await requireAccess(creator, accountId, now);
  const shards = viewerShardsOf(creator);
  const shard = randomInt(shards);
  const [beat, token, epg] = await Promise.all([
    state === 'active'
      ? heartbeatSession(session, now, bucket, leaseUntil(bucket))
      : { outcome: 'gone' as const },
    state === 'active' ? sessionToken(session, creator, now) : undefined,
    state === 'active' ? heartbeatEpg(creator, session.timezone, now) : undefined,
    claims ? countPresence(session.channel_id, session.device_type, now, shards, shard) : undefined,
  ]);
  if (claims && beat.outcome !== 'counted')
    await countPresence(session.channel_id, session.device_type, now, shards, shard, -1);
  if (beat.outcome === 'gone' || !token || !epg) {
    return {
      session_id: session.session_id,
      session_valid: false,
      reason: state === 'ended' ? 'ended' : 'expired',
      expires_at: session.expires_at,
    };
  }
  const viewers = publishedViewers(creator);
  return {
    session_id: session.session_id,
    session_valid: true,
    expires_at: beat.expires_at,
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
