import * as z from 'zod/mini';
import { DEVICE_TYPES } from '../catalog/model.ts';
import { described, named, responseSchemas, responsesNotBundled } from '../schema/schema-meta.ts';
import { displayText } from '../schema/display-text.ts';
import { idParam, pageQuery, windowedDateTime } from '../schema/validation.ts';

/**
 * Analytics request schemas (docs/analytics.md). Every event carries the session, the content or
 * channel, the device and, where it applies, the playhead. Event types follow the common
 * player-event model (Mux/Video.js-style names).
 *
 * Identity and time follow Segment's rule, so what real players send is accepted:
 * - `event_id` (UUID) is optional. Sent, it is the de-duplication key (a resend with the same id
 *   is dropped downstream); absent, the server assigns a UUID and the event is never de-duplicated.
 * - the client time is `client_ts` or its alias `timestamp` (both ISO 8601 with an offset;
 *   `client_ts` wins when both are sent). An event sent as it happens (session start, heartbeat,
 *   quality, error, end) may omit both: the server's receive time is used. Batched events
 *   (`/video/events`, `/video/ads`, `/live/events`) must carry one, since they are buffered and
 *   the receive time would misplace and reorder them.
 */
export const MAX_BATCH = 100;

/** Examples from the demo data (seed 42): its first episode and channel. */
const EXAMPLE_EPISODE = 'ep_0001_s1e01';
const EXAMPLE_CHANNEL = 'ch_0001';
const EXAMPLE_SESSION = '3f2c8a4e-9b1d-4c57-a0e6-5d7b2f9c1e84';
const EXAMPLE_EVENT = '7d9e4b21-6c3a-4f8e-b5d2-0a1c9e8f7b63';
const EXAMPLE_TIME = '2026-11-23T20:15:00.250Z';

const eventId = /* @__PURE__ */ (() =>
  described(
    z.optional(z.uuid({ error: 'event_id must be a UUID' })),
    'Client-generated UUID, the de-duplication key (a resend with the same id counts once). Optional: when absent the server assigns one and the event is never de-duplicated, so send one if you retry.',
    EXAMPLE_EVENT,
  ))();
const clientTime = (field: 'client_ts' | 'timestamp', description: string) =>
  described(
    z.optional(windowedDateTime(`${field} must be an ISO 8601 timestamp`)),
    description,
    EXAMPLE_TIME,
  );
const deviceType = /* @__PURE__ */ (() =>
  described(
    z.enum(DEVICE_TYPES, { error: `device_type must be one of: ${DEVICE_TYPES.join(', ')}` }),
    'The kind of device playing: `web` (browser), `ios`, `android`, `roku`, `firetv` (Amazon Fire TV), `appletv`',
    'web',
  ))();

/**
 * A short optional label a player or app reports about itself: an analytics dimension, shown in
 * the reports, so display text (no control or bidi override characters: docs/conventions.md).
 */
const label = (name: string, description: string, example: string) =>
  described(z.optional(displayText({ name, min: 1, max: 64 })), description, example);

/** Fields of an event sent as it happens: no time means the server's receive time. */
const common = /* @__PURE__ */ (() => ({
  event_id: eventId,
  device_type: deviceType,
  player_name: label(
    'player_name',
    'The player software, 1 to 64 characters (e.g. `hls.js`, `avplayer`, `exoplayer`): an analytics dimension. Optional; send it at least on the session start (the session keeps the value it was started with).',
    'hls.js',
  ),
  player_version: label(
    'player_version',
    'The player software version, 1 to 64 characters. Optional, as `player_name`.',
    '1.7.4',
  ),
  client_version: label(
    'client_version',
    'The version of the app or web client sending the event, 1 to 64 characters. Optional, as `player_name`.',
    '3.12.0',
  ),
  client_ts: clientTime(
    'client_ts',
    'When the event happened on the client: ISO 8601 with an offset (`Z` or `+02:00`); epoch numbers are refused. Optional here: without it (and without `timestamp`) the server receive time is used.',
  ),
  timestamp: clientTime(
    'timestamp',
    'Alias of `client_ts` (Segment style), ISO 8601 with an offset; `client_ts` wins when both are sent.',
  ),
}))();
/** Fields of a batched event: the same, but a client time is required (see `batched`). */
const buffered = /* @__PURE__ */ (() => ({
  ...common,
  client_ts: clientTime(
    'client_ts',
    'When the event happened on the client: ISO 8601 with an offset (`Z` or `+02:00`); epoch numbers are refused. Required in a batch unless `timestamp` is sent (batches are buffered, so the receive time would misplace the event).',
  ),
}))();
/**
 * A batched event must say when it happened: `client_ts` or `timestamp` (checked, and stated as
 * `anyOf` in the OpenAPI document). It is filed under `id` in the document's components.
 */
const hasClientTime = /* @__PURE__ */ (() =>
  z.refine<{ client_ts?: unknown; timestamp?: unknown }>(
    (e) => e.client_ts !== undefined || e.timestamp !== undefined,
    { path: ['client_ts'], error: 'client_ts (or timestamp) is required for a batched event' },
  ))();
const batched = <S extends z.ZodMiniObject>(id: string, event: S, description: string): S => {
  const checked = event.check(hasClientTime);
  z.globalRegistry.add(checked as z.ZodMiniObject, {
    id,
    description: `${description} Carries \`client_ts\` or \`timestamp\`.`,
    anyOf: [{ required: ['client_ts'] }, { required: ['timestamp'] }],
  });
  return checked;
};

const sessionId = /* @__PURE__ */ (() =>
  described(
    z.uuid({ error: 'session_id must be the id returned by session/start' }),
    'The analytics session: the `session_id` its `session/start` returned',
    EXAMPLE_SESSION,
  ))();
const contentId = /* @__PURE__ */ described(
  idParam,
  'The episode (or other on-demand title) being played',
  EXAMPLE_EPISODE,
);
const channelId = /* @__PURE__ */ described(idParam, 'The live channel being watched', EXAMPLE_CHANNEL);
const position = /* @__PURE__ */ (() =>
  described(z.number().check(z.minimum(0), z.maximum(1e7)), 'A playhead position'))();
const playhead = (description: string) =>
  described(
    position,
    `Playhead in seconds from the start of the content (fractions allowed)${description}`,
    754.5,
  );
const seconds = /* @__PURE__ */ (() =>
  described(z.number().check(z.minimum(0), z.maximum(3600)), 'Seconds, 0 to 3600'))();
const playingSeconds = (since: string) =>
  described(seconds, `Seconds of actual playback (stalls and pauses excluded) since ${since}, 0 to 3600`, 30);
const rebufferSeconds = /* @__PURE__ */ (() =>
  described(
    z.optional(seconds),
    'Seconds spent stalled (rebuffering) since the last heartbeat, 0 to 3600',
    0.8,
  ))();
/** A whole number in `min`..`max`. */
const whole = (min: number, max: number) => z.int().check(z.minimum(min), z.maximum(max));
const video = /* @__PURE__ */ (() => ({ ...common, session_id: sessionId, content_id: contentId }))();
const live = /* @__PURE__ */ (() => ({ ...common, session_id: sessionId, channel_id: channelId }))();
const bufferedVideo = /* @__PURE__ */ (() => ({
  ...buffered,
  session_id: sessionId,
  content_id: contentId,
}))();
const bufferedLive = /* @__PURE__ */ (() => ({
  ...buffered,
  session_id: sessionId,
  channel_id: channelId,
}))();

export const PLAYER_EVENT_TYPES = [
  'playerready',
  'play',
  'playing',
  'pause',
  'seeking',
  'seeked',
  'rebufferstart',
  'rebufferend',
  'ended',
] as const;
export const AD_EVENT_TYPES = ['adrequest', 'adstart', 'adcomplete', 'aderror', 'adskip'] as const;

const PLAYER_EVENT_MEANINGS =
  '`playerready`: the player loaded and can play; `play`: playback was requested (the viewer pressed play, or autoplay); `playing`: frames are rendering (the first `playing` after the session start marks the startup time); `pause`: the viewer paused; `seeking`: a seek started; `seeked`: the seek finished (`position_seconds` is where it landed); `rebufferstart`: playback stalled waiting for data; `rebufferend`: playback resumed after a stall (send `rebuffer_ms`); `ended`: playback reached the end of the content.';

const playerEvent = (id: string, base: typeof bufferedVideo | typeof bufferedLive, of: string) =>
  batched(
    id,
    z.object({
      ...base,
      type: described(
        z.enum(PLAYER_EVENT_TYPES, { error: `type must be one of: ${PLAYER_EVENT_TYPES.join(', ')}` }),
        `What happened. ${PLAYER_EVENT_MEANINGS}`,
        'playing',
      ),
      position_seconds: described(
        z.optional(position),
        'Playhead in seconds when the event happened (fractions allowed), where the player reports one',
        754.5,
      ),
      rebuffer_ms: described(
        z.optional(whole(0, 3_600_000)),
        'On `rebufferend`: how long playback stalled, in milliseconds (whole, up to one hour)',
        1200,
      ),
    }),
    `A player event of ${of}, sent in a batch.`,
  );

const batch = <T extends z.ZodMiniType>(event: T, of: string) =>
  z.object({
    events: described(
      z
        .array(event)
        .check(
          z.minLength(1, { error: 'events must not be empty' }),
          z.maxLength(MAX_BATCH, { error: `at most ${MAX_BATCH} events per batch` }),
        ),
      `${of}, 1 to ${MAX_BATCH} per request, in the order they happened. All or nothing: one invalid item makes the request a 422 naming it (\`events.<i>.<field>\`) and nothing of the batch is recorded.`,
    ),
  });

export const videoStartBody = /* @__PURE__ */ (() =>
  z.object({
    ...common,
    content_id: contentId,
    position_seconds: described(
      z.optional(position),
      'Playhead in seconds where playback starts (0, or the resume point)',
      0,
    ),
    autoplay: described(z.optional(z.boolean()), 'Playback started without a viewer action', false),
  }))();
export type VideoStartBody = z.infer<typeof videoStartBody>;

export const videoHeartbeatBody = /* @__PURE__ */ (() =>
  z.object({
    ...video,
    position_seconds: playhead('; for a signed-in viewer it is also the continue-watching resume point'),
    playing_seconds: playingSeconds('the last heartbeat (or the session start)'),
    rebuffer_seconds: rebufferSeconds,
  }))();
export type VideoHeartbeatBody = z.infer<typeof videoHeartbeatBody>;

export const videoEventsBody = /* @__PURE__ */ (() =>
  batch(
    playerEvent('VideoPlayerEvent', bufferedVideo, 'an on-demand session'),
    'Player events of one or more on-demand sessions',
  ))();
export type VideoPlayerEvent = z.infer<typeof videoEventsBody>['events'][number];

export const videoQualityBody = /* @__PURE__ */ (() =>
  z.object({
    ...video,
    position_seconds: described(z.optional(position), 'Playhead in seconds at the change', 754.5),
    bitrate_kbps: described(whole(1, 200_000), 'Bitrate of the new rendition, in kilobits per second', 4500),
    width: described(whole(1, 16_384), 'Width of the new rendition, in pixels', 1920),
    height: described(whole(1, 16_384), 'Height of the new rendition, in pixels', 1080),
  }))();
export type VideoQualityBody = z.infer<typeof videoQualityBody>;

export const videoErrorBody = /* @__PURE__ */ (() =>
  z.object({
    ...video,
    position_seconds: described(z.optional(position), 'Playhead in seconds when the error happened', 754.5),
    code: described(
      z.string().check(z.minLength(1), z.maxLength(64)),
      "The player's error code, 1 to 64 characters",
      'MEDIA_ERR_NETWORK',
    ),
    message: described(
      z.string().check(z.maxLength(1000)),
      "The player's error message, up to 1000 characters (no personal data)",
      'Segment request failed with status 503',
    ),
    fatal: described(
      z.boolean(),
      'Playback stopped because of it (counted in the playback-failure metric); false for a recovered error',
      false,
    ),
  }))();
export type VideoErrorBody = z.infer<typeof videoErrorBody>;

export const videoAdsBody = /* @__PURE__ */ (() =>
  batch(
    batched(
      'VideoAdEvent',
      z.object({
        ...bufferedVideo,
        type: described(
          z.enum(AD_EVENT_TYPES, { error: `type must be one of: ${AD_EVENT_TYPES.join(', ')}` }),
          'What happened: `adrequest`: an ad was requested from the ad server; `adstart`: the ad started playing; `adcomplete`: the ad played to its end; `aderror`: the ad failed to load or play; `adskip`: the viewer skipped it.',
          'adstart',
        ),
        position_seconds: described(
          z.optional(position),
          'Playhead of the content in seconds at the ad break (0 for a pre-roll)',
          0,
        ),
        ad_id: described(
          z.optional(z.string().check(z.maxLength(128))),
          "The ad server's id of the ad (up to 128 characters)",
          'ad_48213',
        ),
      }),
      'An ad event of an on-demand session, sent in a batch.',
    ),
    'Ad events of one or more on-demand sessions',
  ))();
export type VideoAdEvent = z.infer<typeof videoAdsBody>['events'][number];

export const videoEndBody = /* @__PURE__ */ (() =>
  z.object({
    ...video,
    position_seconds: playhead(
      '; for a signed-in viewer it is saved for continue watching, or clears the entry once the episode is finished (past 90% or in its last 5 minutes)',
    ),
    playing_seconds: described(
      z.optional(seconds),
      'Seconds of actual playback since the last heartbeat, 0 to 3600',
      12,
    ),
    reason: described(
      z.enum(['completed', 'user_exit', 'error', 'background']),
      'Why the session ended: `completed`: played to the end; `user_exit`: the viewer left; `error`: a fatal error stopped playback; `background`: the app went to the background',
      'user_exit',
    ),
  }))();
export type VideoEndBody = z.infer<typeof videoEndBody>;

export const liveStartBody = /* @__PURE__ */ (() => z.object({ ...common, channel_id: channelId }))();
export type LiveStartBody = z.infer<typeof liveStartBody>;

export const liveHeartbeatBody = /* @__PURE__ */ (() =>
  z.object({
    ...live,
    playing_seconds: playingSeconds('the last heartbeat (or the session start)'),
    rebuffer_seconds: rebufferSeconds,
  }))();
export type LiveHeartbeatBody = z.infer<typeof liveHeartbeatBody>;

export const liveEventsBody = /* @__PURE__ */ (() =>
  batch(
    z.discriminatedUnion('type', [
      playerEvent('LivePlayerEvent', bufferedLive, 'a live session'),
      batched(
        'LiveReactionEvent',
        z.object({
          ...bufferedLive,
          type: described(z.literal('reaction'), 'The viewer sent a reaction', 'reaction'),
          emoji: described(
            z.string().check(z.minLength(1), z.maxLength(32)),
            'The reaction sent, an emoji (1 to 32 characters)',
            '🔥',
          ),
        }),
        'A reaction the viewer sent during a live session, in a batch.',
      ),
      batched(
        'LiveEpgChangeEvent',
        z.object({
          ...bufferedLive,
          type: described(
            z.literal('epg_change'),
            'The program on the channel changed while the viewer watched',
            'epg_change',
          ),
          program_id: described(idParam, 'The program now on air (from the channel EPG)', 'pg_0001_29921760'),
        }),
        'A program change on the watched channel during a live session, in a batch.',
      ),
    ]),
    'Events of one or more live sessions, told apart by `type`: player events, `reaction` and `epg_change`',
  ))();
export type LiveEvent = z.infer<typeof liveEventsBody>['events'][number];

export const liveEndBody = /* @__PURE__ */ (() =>
  z.object({
    ...live,
    playing_seconds: described(
      z.optional(seconds),
      'Seconds of actual playback since the last heartbeat, 0 to 3600',
      12,
    ),
    reason: described(
      z.enum(['user_exit', 'error', 'background', 'stream_ended']),
      'Why the session ended: `user_exit`: the viewer left; `error`: a fatal error stopped playback; `background`: the app went to the background; `stream_ended`: the live stream ended',
      'user_exit',
    ),
  }))();
export type LiveEndBody = z.infer<typeof liveEndBody>;

export const listContinueWatchingQuery = /* @__PURE__ */ (() =>
  z.object({
    limit: described(pageQuery(20).limit, 'Most entries to return, 1 to 100 (default 20)', 20),
  }))();
export type ListContinueWatchingQuery = z.infer<typeof listContinueWatchingQuery>;

// ---- Responses -------------------------------------------------------------------------------

/**
 * The response schemas, built on the first call of the export below: only the OpenAPI document
 * and the tests call it (through the contracts' `responses`); Lambda bundles leave them out
 * (`responseSchemas`, shared/schema/schema-meta.ts).
 */
const buildResponses = () => {
  const AnalyticsSession = named(
    'AnalyticsSession',
    z.object({
      session_id: described(
        z.uuid(),
        'The new analytics session (a UUID v4 the server assigns): send it as `session_id` with every later event of this playback',
        EXAMPLE_SESSION,
      ),
      heartbeat_interval_seconds: described(
        z.number().check(z.int()),
        'Seconds between heartbeats the client should keep to (spec 8)',
        30,
      ),
    }),
    'A started analytics session (spec 4.8)',
  );

  const AnalyticsReceipt = named(
    'AnalyticsReceipt',
    z.object({
      accepted: described(
        z.number().check(z.int(), z.minimum(1), z.maximum(MAX_BATCH)),
        'Events recorded: 1 for a single event, the batch size for a batch (batches are all or nothing)',
        1,
      ),
      received_at: described(
        z.iso.datetime(),
        'When the server received them (ISO 8601, UTC); the event time when the client sent none',
        EXAMPLE_TIME,
      ),
    }),
    'Analytics events delivered to the analytics store',
  );

  const ContinueWatchingItem = named(
    'ContinueWatchingItem',
    z.object({
      content_id: described(z.string(), 'The episode', EXAMPLE_EPISODE),
      show_id: described(z.string(), 'The show it belongs to', 'sh_0001'),
      title: described(z.string(), 'Episode title', 'Office Sketches: Episode 1'),
      thumbnail_url: described(
        z.string(),
        'Episode thumbnail URL',
        'https://cdn.example.com/vod/ep_0001_s1e01/thumb.jpg',
      ),
      position_seconds: described(
        z.number().check(z.int(), z.minimum(0)),
        'Where to resume: the last playhead reported, in whole seconds',
        754,
      ),
      duration_seconds: described(z.number().check(z.int(), z.minimum(0)), 'Episode length in seconds', 3483),
      progress_percent: described(
        z.number().check(z.int(), z.minimum(0), z.maximum(100)),
        'Share watched, 0 to 100, rounded down',
        21,
      ),
      updated_at: described(
        z.iso.datetime(),
        'When the playhead was last reported (ISO 8601, UTC)',
        EXAMPLE_TIME,
      ),
    }),
    'An episode the signed-in viewer started and has not finished, with the resume point',
  );

  const ContinueWatchingList = z.object({
    items: described(z.array(ContinueWatchingItem), 'Unfinished episodes, most recently watched first'),
  });
  return { AnalyticsSession, AnalyticsReceipt, ContinueWatchingItem, ContinueWatchingList };
};
export const analyticsResponses =
  process.env.LAMBDA_BUNDLE_RESPONSES === 'none' ? responsesNotBundled : responseSchemas(buildResponses);
type Built = ReturnType<typeof buildResponses>;

export type AnalyticsSession = z.infer<Built['AnalyticsSession']>;
export type AnalyticsReceipt = z.infer<Built['AnalyticsReceipt']>;
export type ContinueWatchingItem = z.infer<Built['ContinueWatchingItem']>;
