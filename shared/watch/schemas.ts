import * as z from 'zod/mini';
import { DEVICE_TYPES, QUALITY_VALUES } from '../catalog/model.ts';
import { SUBSCRIPTION_STATUSES } from '../catalog/model.ts';
import { epgResponses, timeZoneField } from '../epg/schemas.ts';
import { described, named, responseSchemas, responsesNotBundled } from '../schema/schema-meta.ts';
import { boolParam, enumParam, idParam, pageQuery, wholeNumberParam } from '../schema/validation.ts';

const quality = /* @__PURE__ */ (() =>
  described(
    z.enum(QUALITY_VALUES, { error: `quality must be one of: ${QUALITY_VALUES.join(', ')}` }),
    'A playback quality',
  ))();
const deviceType = /* @__PURE__ */ (() =>
  described(
    z.enum(DEVICE_TYPES, { error: `device_type must be one of: ${DEVICE_TYPES.join(', ')}` }),
    'A kind of device',
  ))();
const sessionId = /* @__PURE__ */ (() =>
  described(z.uuid({ error: 'session_id must be a session id (UUID)' }), 'A watch session id'))();

const SESSION_ID_EXAMPLE = '5b0f8c2e-3d4a-4f6b-9c1e-7a2d8e4f6b10';
const describedSessionId = /* @__PURE__ */ described(
  sessionId,
  'Watch session id (UUID), from `session.session_id` of POST .../live/watch',
  SESSION_ID_EXAMPLE,
);

export const creatorPath = /* @__PURE__ */ (() =>
  z.object({
    id: described(idParam, 'Creator id (or their handle)', 'cr_0001'),
  }))();

export const streamQuery = /* @__PURE__ */ (() =>
  z.object({
    quality: described(
      z._default(enumParam('quality', QUALITY_VALUES), 'auto'),
      'Rendition to play: `auto` (adaptive master playlist) or a fixed quality',
      '720p',
    ),
    dvr: described(
      z._default(boolParam('dvr'), false),
      '`true` to get the DVR (rewindable) playlist as `stream_url`',
      'false',
    ),
  }))();

export type StreamQuery = z.infer<typeof streamQuery>;

export const sessionQuery = /* @__PURE__ */ (() => z.object({ session_id: describedSessionId }))();

export const openWatchBody = /* @__PURE__ */ (() =>
  z.object({
    channel_id: described(
      idParam,
      "The creator's channel id (`channel.channel_id` of GET .../live)",
      'ch_0001',
    ),
    device_type: described(deviceType, 'Device the viewer watches on (counted in `by_device`)', 'web'),
    quality: described(z._default(quality, 'auto'), 'Starting rendition (default `auto`)', '720p'),
    timezone: timeZoneField("IANA time zone name for the `epg` block's times and date (default `UTC`)"),
  }))();
export type OpenWatchBody = z.infer<typeof openWatchBody>;

/** PATCH: `session_id` and `quality` are required (changing quality is the point); `device_type` optional (a cast to another device). */
export const changeWatchBody = /* @__PURE__ */ (() =>
  z.object({
    session_id: describedSessionId,
    quality: described(quality, 'The new rendition', '1080p'),
    device_type: described(
      z.optional(deviceType),
      'The device the session moves to (a cast); unchanged when absent',
      'roku',
    ),
  }))();
export type ChangeWatchBody = z.infer<typeof changeWatchBody>;

export const ONDEMAND_TYPES = ['all', 'free', 'premium', 'ppv'] as const;

export const ondemandQuery = /* @__PURE__ */ (() =>
  z.object({
    type: described(
      z._default(enumParam('type', ONDEMAND_TYPES), 'all'),
      'Only episodes of this access type (`all` for every type)',
      'free',
    ),
    season: described(
      z.optional(wholeNumberParam('season must be a whole number from 1 to 99', 1, 99)),
      'Only episodes of this season number (every season when absent)',
      1,
    ),
    ...pageQuery(20),
  }))();
export type OndemandQuery = z.infer<typeof ondemandQuery>;

// ---- Responses -------------------------------------------------------------------------------

/**
 * The response schemas, built on the first call of the export below: only the OpenAPI document
 * and the tests call it (through the contracts' `responses`); Lambda bundles leave them out
 * (`responseSchemas`, shared/schema/schema-meta.ts).
 */
const buildResponses = () => {
  const count = (description: string, example: number) =>
    described(z.number().check(z.int()), description, example);
  const formatted = (of: string, example: string) =>
    described(z.string(), `${of}, abbreviated for display (1.2K, 3.4M)`, example);
  const instant = (description: string, example: string) =>
    described(z.string(), `${description} (ISO 8601, UTC)`, example);
  const url = (description: string, example: string) => described(z.string(), description, example);

  const STREAM_ID = 'st_cr_0001_501';
  const TOKEN_EXAMPLE =
    'eyJ2IjoxLCJhY2MiOiJhY2NfZGVtb192aWV3ZXIiLCJzaWQiOiJub25lIiwic3RyIjoic3RfY3JfMDAwMV81MDEiLCJxIjoiNzIwcCIsImV4cCI6MTc0ODc3OTUwMH0.3q2Kx0lQmZ8uY1vR7nT5bW9cE4fH6jL2pA8sD0gK1oM';

  const creatorId = described(z.string(), 'Creator id', 'cr_0001');
  const channelId = described(z.string(), 'Channel id', 'ch_0001');
  const streamId = described(z.string(), 'Live stream id (changes with every broadcast)', STREAM_ID);
  const qualityValue = (description: string, example: string) =>
    described(z.enum(QUALITY_VALUES), description, example);
  const playbackToken = described(
    z.string(),
    'Playback token bound to the viewer, session, stream and quality; already embedded in the playback URLs (docs/live.md)',
    TOKEN_EXAMPLE,
  );
  const tokenExpiresAt = instant(
    'When the playback token expires (5 minutes after issue)',
    '2025-06-01T12:05:00.000Z',
  );
  const watchingNow = count(
    'Viewers now, counted from watch-session opens and heartbeats in 30-second buckets',
    15727,
  );
  const watchingNowFormatted = formatted('Viewers now', '15.7K');
  const subscriptionStatus = z.enum(SUBSCRIPTION_STATUSES);

  /**
   * Stream health values: `good` (as seen in the spec), `fair` (dropped frames or bitrate below
   * 80% of target), `poor` (stalls or below 50%), `offline` (ingest lost; the stream may resume).
   * The demo ingest reports `good`.
   */
  const STREAM_HEALTH = ['good', 'fair', 'poor', 'offline'] as const;
  const health = (description: string) => described(z.enum(STREAM_HEALTH), description, 'good');

  /** Labels of the quality options (QUALITY_OPTIONS in stream-views.ts), best first after Auto. */
  const QUALITY_LABELS = ['Auto', '1080p', '720p', '480p', '360p'] as const;
  const qualityLabel = described(z.enum(QUALITY_LABELS), 'Display label of a quality', '1080p');

  const LiveStreamSummary = named(
    'LiveStreamSummary',
    z.object({
      stream_id: streamId,
      title: described(z.string(), 'Title of the broadcast', 'Improv with chat'),
      started_at: instant('When the broadcast started', '2025-06-01T10:23:00.000Z'),
      thumbnail_url: url('Live thumbnail image URL', 'https://cdn.example.com/live/cr_0001/thumb.jpg'),
      stream_url: url(
        "The channel's IVS playback URL without a playback token: a reference IVS refuses on a private channel; play the URL from POST .../live/watch (or GET .../live/stream within the session)",
        'https://a1b2c3d4e5f6.us-east-1.playback.live-video.net/api/video/v1/us-east-1.123456789012.channel.AbCdEf123456.m3u8',
      ),
      dvr_url: url(
        'DVR playlist: the recording IVS is writing of this stream, through the media CDN (on a channel that requires a subscription, or before the recording starts, the tokenless live URL)',
        'https://cdn.example.com/ivs/v1/123456789012/AbCdEf123456/2025/6/1/10/23/Xy12AbCd34Ef/media/hls/master.m3u8',
      ),
    }),
    "A channel's live broadcast (spec 2.5)",
  );

  const LiveChannel = named(
    'LiveChannel',
    z.object({
      channel_id: channelId,
      channel_name: described(z.string(), 'Channel name', 'Jonas Vargas Live'),
      channel_number: count('Channel number in the TV guide', 100),
      is_live: described(z.boolean(), 'A broadcast is on now', true),
      watching_now: described(z.optional(watchingNow), 'Viewers now (live channels only)', 15727),
      watching_now_formatted: described(
        z.optional(watchingNowFormatted),
        'Viewers now, abbreviated (live channels only)',
        '15.7K',
      ),
      stream: described(z.nullable(LiveStreamSummary), 'The broadcast; null when offline'),
    }),
    "A creator's live channel (spec 2.5)",
  );

  const LiveChannelOnline = named(
    'LiveChannelOnline',
    z.object({
      creator_id: creatorId,
      creator_name: described(z.string(), "Creator's display name", 'Jonas Vargas'),
      is_live: described(z.literal(true), 'The channel is live'),
      channel: LiveChannel,
      user_state: described(
        z.object({
          is_following: described(z.boolean(), 'The caller follows the creator (false when anonymous)', true),
          is_subscribed: described(
            z.boolean(),
            "The caller's subscription grants access now (false when anonymous)",
            true,
          ),
        }),
        "The caller's relationship with the creator",
      ),
    }),
    'Live status of a channel that is live',
  );

  const LiveChannelOffline = named(
    'LiveChannelOffline',
    z.object({
      creator_id: creatorId,
      is_live: described(z.literal(false), 'The channel is offline'),
      channel: LiveChannel,
      message: described(
        z.string(),
        'A note for people',
        "Leila Ahmed is offline right now. Check the schedule for what's on next.",
      ),
    }),
    'Live status of a channel that is offline',
  );

  const LiveChannelStatus = z.discriminatedUnion('is_live', [LiveChannelOnline, LiveChannelOffline]);

  const LivePlayback = named(
    'LivePlayback',
    z.object({
      stream_id: streamId,
      is_live: described(z.literal(true), 'Always true: an offline channel answers 404'),
      quality: qualityValue('The rendition the URLs play', '720p'),
      stream_url: url(
        'The IVS playback URL with `?token=` (the DVR playlist when `dvr=true`)',
        'https://a1b2c3d4e5f6.us-east-1.playback.live-video.net/api/video/v1/us-east-1.123456789012.channel.AbCdEf123456.m3u8?token=<token>',
      ),
      dvr_url: url(
        'DVR playlist: the recording IVS is writing of this stream, through the media CDN (the live URL until the recording starts)',
        'https://cdn.example.com/ivs/v1/123456789012/AbCdEf123456/2025/6/1/10/23/Xy12AbCd34Ef/media/hls/master.m3u8',
      ),
      thumbnail_url: url('Live thumbnail image URL', 'https://cdn.example.com/live/cr_0001/thumb.jpg'),
      token: playbackToken,
      token_expires_at: tokenExpiresAt,
      watching_now: watchingNow,
      watching_now_formatted: watchingNowFormatted,
      available_qualities: described(z.array(qualityLabel), 'Labels of the qualities on offer, Auto first', [
        ...QUALITY_LABELS,
      ]),
    }),
    'Playback URLs and a token for one quality of a live stream (no watch session)',
  );

  const perDevice = (description: string) =>
    described(
      z.object({
        web: count('Web viewers', 9210),
        ios: count('iOS viewers', 2870),
        android: count('Android viewers', 2150),
        roku: count('Roku viewers', 640),
        firetv: count('Fire TV viewers', 512),
        appletv: count('Apple TV viewers', 345),
      }),
      description,
    );

  const LiveViewerStats = named(
    'LiveViewerStats',
    z.object({
      watching_now: watchingNow,
      watching_now_formatted: watchingNowFormatted,
      peak_today: count('Most viewers at once today (UTC day)', 18342),
      peak_today_formatted: formatted('Peak today', '18.3K'),
      peak_all_time: count('Most viewers at once ever', 115976),
      peak_all_time_formatted: formatted('Peak all time', '115.9K'),
      by_device: perDevice('Viewers now per device type'),
    }),
    "A channel's audience: viewers now, peaks and the device breakdown",
  );

  const LiveViewers = named(
    'LiveViewers',
    z.object({
      creator_id: creatorId,
      channel_id: channelId,
      is_live: described(z.boolean(), 'A broadcast is on now', true),
      viewers: LiveViewerStats,
    }),
    "A channel's audience now, for GET .../live/viewers",
  );

  const LiveStreamMetadata = named(
    'LiveStreamMetadata',
    z.object({
      stream_id: described(z.nullable(z.string()), 'Live stream id; null when offline', STREAM_ID),
      is_live: described(z.boolean(), 'A broadcast is on now', true),
      stream_health: health('Ingest health: `good`, `fair`, `poor`; `offline` when not live'),
      started_at: described(
        z.nullable(z.string()),
        'When the broadcast started (ISO 8601, UTC); null when offline',
        '2025-06-01T10:23:00.000Z',
      ),
      uptime_seconds: count('Seconds since the broadcast started (0 when offline)', 5820),
      uptime_formatted: described(z.string(), 'Uptime as `MM:SS`, or `H:MM:SS` from an hour', '1:37:00'),
      latency_mode: described(z.literal('low'), 'Latency mode (low-latency HLS)', 'low'),
      bitrate_kbps: count('Top rendition bitrate, kbit/s', 6000),
      resolution: described(z.string(), 'Top rendition resolution, `<width>x<height>`', '1920x1080'),
      frame_rate: count('Top rendition frame rate, frames per second', 60),
      cdn: described(
        z.object({
          provider: described(z.string(), 'CDN', 'cloudfront'),
          region: described(z.string(), 'Origin region', 'us-east-1'),
          edge_location: described(z.string(), 'Edge location code', 'IAD89'),
        }),
        'Where the stream is delivered from',
      ),
      drm: described(
        z.object({
          enabled: described(
            z.boolean(),
            'DRM protects the stream (channels that require a subscription)',
            true,
          ),
          type: described(z.nullable(z.literal('widevine')), 'DRM system; null without DRM', 'widevine'),
          license_url: described(
            z.nullable(z.string()),
            'License server URL; null without DRM',
            'https://cdn.example.com/drm/widevine/cr_0001',
          ),
        }),
        'Content protection',
      ),
      stream_urls: described(
        z.object({
          hls: url(
            "The channel's IVS playback URL without a token (a reference IVS refuses on a private channel)",
            'https://a1b2c3d4e5f6.us-east-1.playback.live-video.net/api/video/v1/us-east-1.123456789012.channel.AbCdEf123456.m3u8',
          ),
          dvr: url(
            'DVR playlist (see `dvr_url` of the stream summary)',
            'https://cdn.example.com/ivs/v1/123456789012/AbCdEf123456/2025/6/1/10/23/Xy12AbCd34Ef/media/hls/master.m3u8',
          ),
          thumbnail: url('Thumbnail image URL', 'https://cdn.example.com/live/cr_0001/thumb.jpg'),
        }),
        'Tokenless reference URLs of the stream',
      ),
    }),
    'Technical facts of a live stream (spec 2.5)',
  );

  const LiveQualityOption = named(
    'LiveQualityOption',
    z.object({
      label: qualityLabel,
      value: qualityValue('Value to send as `quality`', '1080p'),
      description: described(
        z.optional(z.string()),
        'The `auto` option only: what it does',
        'Adapts to your connection (recommended)',
      ),
      bitrate_kbps: described(
        z.optional(z.number().check(z.int())),
        'Concrete qualities only: bitrate, kbit/s',
        6000,
      ),
      resolution: described(
        z.optional(z.string()),
        'Concrete qualities only: resolution, `<width>x<height>`',
        '1920x1080',
      ),
      frame_rate: described(
        z.optional(z.number().check(z.int())),
        'Concrete qualities only: frames per second',
        60,
      ),
    }),
    'A quality a live stream can be watched in (spec 2.5)',
  );

  const LiveQualities = named(
    'LiveQualities',
    z.object({
      session_id: described(z.string(), 'Watch session id', SESSION_ID_EXAMPLE),
      current_quality: qualityValue("The session's quality now", '720p'),
      available_qualities: described(z.array(LiveQualityOption), 'Every option, `auto` first'),
    }),
    "The quality options of a live stream and a watch session's current quality",
  );

  const WatchSession = named(
    'WatchSession',
    z.object({
      session_id: described(z.string(), 'Watch session id (UUID)', SESSION_ID_EXAMPLE),
      started_at: instant('When the session opened', '2025-06-01T12:00:00.000Z'),
      expires_at: instant(
        'When the session lapses without a heartbeat (90 s after the last one)',
        '2025-06-01T12:01:30.000Z',
      ),
      heartbeat_interval_seconds: count('Seconds between heartbeats', 30),
      device_type: described(z.enum(DEVICE_TYPES), 'Device the viewer watches on', 'web'),
    }),
    'A watch session (spec 2.5)',
  );

  const WatchStarted = named(
    'WatchStarted',
    z.object({
      session: WatchSession,
      stream: described(
        z.object({
          stream_id: streamId,
          stream_url: url(
            'The IVS playback URL with `?token=` (its multivariant playlist; the player applies the quality)',
            'https://a1b2c3d4e5f6.us-east-1.playback.live-video.net/api/video/v1/us-east-1.123456789012.channel.AbCdEf123456.m3u8?token=<token>',
          ),
          dvr_url: url(
            'DVR playlist: the recording IVS is writing of this stream, through the media CDN (the live URL until the recording starts)',
            'https://cdn.example.com/ivs/v1/123456789012/AbCdEf123456/2025/6/1/10/23/Xy12AbCd34Ef/media/hls/master.m3u8',
          ),
          thumbnail_url: url('Live thumbnail image URL', 'https://cdn.example.com/live/cr_0001/thumb.jpg'),
          quality: qualityValue("The session's quality", '720p'),
          token: playbackToken,
          token_expires_at: tokenExpiresAt,
          latency_mode: described(z.literal('low'), 'Latency mode (low-latency HLS)', 'low'),
          health: health('Ingest health'),
          available_qualities: described(
            z.array(
              z.object({
                label: qualityLabel,
                bitrate_kbps: count('Bitrate, kbit/s', 6000),
              }),
            ),
            'The concrete qualities, best first (PATCH .../live/watch to switch)',
          ),
        }),
        'What to play',
      ),
      channel: LiveChannel,
      creator: described(
        z.object({
          id: creatorId,
          name: described(z.string(), 'Display name', 'Jonas Vargas'),
          is_verified: described(z.boolean(), 'Verified creator', true),
        }),
        'Who is broadcasting',
      ),
      viewers: described(
        z.object({
          watching_now: watchingNow,
          watching_now_formatted: watchingNowFormatted,
          peak_today: count('Most viewers at once today (UTC day)', 18342),
          peak_today_formatted: formatted('Peak today', '18.3K'),
        }),
        'The audience, this viewer included',
      ),
      epg: epgResponses().WatchEpg,
    }),
    "A watch session just opened: the session, what to play, the channel, the creator, the audience and the day's guide (spec 4.4)",
  );

  const WatchQualityChanged = named(
    'WatchQualityChanged',
    z.object({
      session_id: described(z.string(), 'Watch session id', SESSION_ID_EXAMPLE),
      quality: qualityValue('The new quality', '1080p'),
      stream_url: url(
        'The IVS playback URL with the refreshed `?token=` (the player switches to the quality)',
        'https://a1b2c3d4e5f6.us-east-1.playback.live-video.net/api/video/v1/us-east-1.123456789012.channel.AbCdEf123456.m3u8?token=<token>',
      ),
      token: playbackToken,
      token_expires_at: tokenExpiresAt,
    }),
    'A watch session switched to another quality, with a refreshed token',
  );

  const WatchEnded = named(
    'WatchEnded',
    z.object({
      session_id: described(z.string(), 'Watch session id', SESSION_ID_EXAMPLE),
      watch_duration_seconds: count('Seconds watched, from open to end (or to expiry)', 1845),
      watch_duration_formatted: described(
        z.string(),
        'Time watched as `MM:SS`, or `H:MM:SS` from an hour',
        '30:45',
      ),
      ended_at: instant('When the session ended (its expiry, when it lapsed)', '2025-06-01T12:30:45.000Z'),
    }),
    'A watch session ended, with the time watched',
  );

  const heartbeatSessionId = described(z.string(), 'Watch session id', SESSION_ID_EXAMPLE);

  const HeartbeatAccepted = named(
    'HeartbeatAccepted',
    z.object({
      session_id: heartbeatSessionId,
      session_valid: described(z.literal(true), 'The session is live and was extended'),
      expires_at: instant('The new expiry (90 s from now)', '2025-06-01T12:01:30.000Z'),
      next_heartbeat_seconds: count('Send the next heartbeat in this many seconds', 30),
      stream: described(
        z.object({
          stream_id: streamId,
          is_live: described(z.boolean(), 'The broadcast is still on', true),
          health: health('Ingest health; `offline` when the broadcast stopped'),
          token: playbackToken,
          token_expires_at: tokenExpiresAt,
        }),
        'The stream, with a refreshed playback token',
      ),
      viewers: described(
        z.object({
          watching_now: watchingNow,
          watching_now_formatted: watchingNowFormatted,
          delta: count('Change in viewers since the previous 30-second bucket', 42),
        }),
        'The audience now',
      ),
      epg: epgResponses().HeartbeatEpg,
    }),
    'A heartbeat on a live session',
  );

  const HeartbeatRefused = named(
    'HeartbeatRefused',
    z.object({
      session_id: heartbeatSessionId,
      session_valid: described(z.literal(false), 'The session has ended or expired: open a new one'),
      reason: described(z.enum(['ended', 'expired']), 'Why the session is no longer valid', 'expired'),
      expires_at: instant('When the session expired (or would have)', '2025-06-01T12:01:30.000Z'),
    }),
    'A heartbeat on a session that has ended or expired (no token)',
  );

  const Heartbeat = z.discriminatedUnion('session_valid', [HeartbeatAccepted, HeartbeatRefused]);

  const OnDemandItem = named(
    'OnDemandItem',
    z.object({
      content_id: described(z.string(), 'Episode id', 'ep_0001_s1e01'),
      type: described(z.enum(['free', 'premium', 'ppv']), 'Access type', 'free'),
      title: described(z.string(), 'Episode title', 'Office Sketches: Episode 1'),
      thumbnail_url: url('Thumbnail image URL', 'https://cdn.example.com/vod/ep_0001_s1e01/thumb.jpg'),
      duration_formatted: described(z.string(), 'Duration as `MM:SS`, or `H:MM:SS` from an hour', '58:03'),
      is_free: described(z.boolean(), 'Free to watch', true),
      is_locked: described(
        z.boolean(),
        'The caller may not play it: premium without a subscription to the creator, or pay-per-view',
        false,
      ),
      stream_url: described(
        z.nullable(z.string()),
        'Playlist URL; null when locked',
        'https://cdn.example.com/vod/ep_0001_s1e01/master.m3u8',
      ),
      season: described(z.optional(z.number().check(z.int())), 'Free items only: season number', 1),
      episode_number: described(z.optional(z.number().check(z.int())), 'Free items only: episode number', 1),
      views_formatted: described(z.optional(z.string()), 'Free items only: views, abbreviated', '15.4K'),
      price: described(z.optional(z.nullable(z.number())), 'Pay-per-view items only: price', 3.99),
      currency: described(
        z.optional(z.nullable(z.string())),
        'Pay-per-view items only: ISO 4217 currency code',
        'USD',
      ),
    }),
    'An on-demand episode of a channel (spec 2.5)',
  );

  const OnDemandPage = named(
    'OnDemandPage',
    z.object({
      creator_id: creatorId,
      total: count('Episodes matching the filters, all pages', 12),
      page: count('This page, from 1', 1),
      content: z.array(OnDemandItem),
    }),
    "A page of a channel's on-demand episodes (the items; `meta_data` has the pagination)",
  );

  const FollowState = named(
    'FollowState',
    z.object({
      creator_id: creatorId,
      is_following: described(z.boolean(), 'The caller now follows the creator', true),
    }),
    "The caller's follow of a creator",
  );

  const SubscriptionState = named(
    'SubscriptionState',
    z.object({
      creator_id: creatorId,
      user_subscription: described(
        z.object({
          is_subscribed: described(z.boolean(), 'The subscription grants access now', true),
          subscribed_at: described(
            z.nullable(z.string()),
            'When the subscription started (ISO 8601, UTC); null without one',
            '2025-06-01T12:00:00.000Z',
          ),
          renewal_date: described(
            z.nullable(z.string()),
            'When it renews, or for a cancelled one when access ends (ISO 8601, UTC); null without one',
            '2025-07-01T12:00:00.000Z',
          ),
          status: described(
            z.nullable(subscriptionStatus),
            '`active`; `cancelled` (access until `renewal_date`); `expired` (past `renewal_date`); null without one',
            'active',
          ),
        }),
        "The caller's subscription",
      ),
    }),
    "The caller's subscription to a creator",
  );
  return {
    STREAM_HEALTH,
    QUALITY_LABELS,
    LiveStreamSummary,
    LiveChannel,
    LiveChannelOnline,
    LiveChannelOffline,
    LiveChannelStatus,
    LivePlayback,
    LiveViewerStats,
    LiveViewers,
    LiveStreamMetadata,
    LiveQualityOption,
    LiveQualities,
    WatchSession,
    WatchStarted,
    WatchQualityChanged,
    WatchEnded,
    HeartbeatAccepted,
    HeartbeatRefused,
    Heartbeat,
    OnDemandItem,
    OnDemandPage,
    FollowState,
    SubscriptionState,
  };
};
export const liveResponses =
  process.env.LAMBDA_BUNDLE_RESPONSES === 'none' ? responsesNotBundled : responseSchemas(buildResponses);
type Built = ReturnType<typeof buildResponses>;

export type LiveStreamSummary = z.infer<Built['LiveStreamSummary']>;
export type LiveChannel = z.infer<Built['LiveChannel']>;
export type LiveChannelStatus = z.infer<Built['LiveChannelStatus']>;
export type LivePlayback = z.infer<Built['LivePlayback']>;
export type LiveViewerStats = z.infer<Built['LiveViewerStats']>;
export type LiveViewers = z.infer<Built['LiveViewers']>;
export type LiveStreamMetadata = z.infer<Built['LiveStreamMetadata']>;
export type LiveQualityOption = z.infer<Built['LiveQualityOption']>;
export type LiveQualities = z.infer<Built['LiveQualities']>;
export type WatchSession = z.infer<Built['WatchSession']>;
export type WatchStarted = z.infer<Built['WatchStarted']>;
export type WatchQualityChanged = z.infer<Built['WatchQualityChanged']>;
export type WatchEnded = z.infer<Built['WatchEnded']>;
export type Heartbeat = z.infer<Built['Heartbeat']>;
export type OnDemandItem = z.infer<Built['OnDemandItem']>;
export type OnDemandPage = z.infer<Built['OnDemandPage']>;
export type FollowState = z.infer<Built['FollowState']>;
export type SubscriptionState = z.infer<Built['SubscriptionState']>;
