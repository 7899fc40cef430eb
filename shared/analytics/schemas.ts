import * as z from 'zod/mini';
import { DEVICE_TYPES } from '../catalog/model.ts';
import { idParam } from '../http/validation.ts';

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

const eventId = z.optional(z.uuid({ error: 'event_id must be a UUID' })).register(z.globalRegistry, {
  description:
    'Client-generated UUID, the de-duplication key. Optional: when absent the server assigns one and the event is never de-duplicated.',
});
const clientTime = (field: 'client_ts' | 'timestamp', description: string) =>
  z
    .optional(z.iso.datetime({ offset: true, error: `${field} must be an ISO 8601 timestamp` }))
    .register(z.globalRegistry, { description });
const deviceType = z.enum(DEVICE_TYPES, {
  error: `device_type must be one of: ${DEVICE_TYPES.join(', ')}`,
});

/** Fields of an event sent as it happens: no time means the server's receive time. */
const common = {
  event_id: eventId,
  device_type: deviceType,
  client_ts: clientTime(
    'client_ts',
    'When the event happened on the client (ISO 8601 with offset). Optional: without it (and without timestamp) the server receive time is used.',
  ),
  timestamp: clientTime(
    'timestamp',
    'Alias of client_ts (Segment style); client_ts wins when both are sent.',
  ),
};
/** Fields of a batched event: the same, but a client time is required (see `batched`). */
const buffered = {
  ...common,
  client_ts: clientTime(
    'client_ts',
    'When the event happened on the client (ISO 8601 with offset). Required in a batch unless timestamp is sent.',
  ),
  timestamp: clientTime(
    'timestamp',
    'Alias of client_ts (Segment style); client_ts wins when both are sent.',
  ),
};
/**
 * A batched event must say when it happened: `client_ts` or `timestamp` (checked, and stated as
 * `anyOf` in the OpenAPI document).
 */
const hasClientTime = z.refine<{ client_ts?: unknown; timestamp?: unknown }>(
  (e) => e.client_ts !== undefined || e.timestamp !== undefined,
  { path: ['client_ts'], error: 'client_ts (or timestamp) is required for a batched event' },
);
const batched = <S extends z.ZodMiniObject>(event: S): S => {
  const checked = event.check(hasClientTime);
  z.globalRegistry.add(checked as z.ZodMiniObject, {
    anyOf: [{ required: ['client_ts'] }, { required: ['timestamp'] }],
  });
  return checked;
};

const sessionId = z.uuid({ error: 'session_id must be the id returned by session/start' });
const position = z.number().check(z.minimum(0), z.maximum(1e7));
const seconds = z.number().check(z.minimum(0), z.maximum(3600));
/** A whole number in `min`..`max`. */
const whole = (min: number, max: number) => z.int().check(z.minimum(min), z.maximum(max));
const video = { ...common, session_id: sessionId, content_id: idParam };
const live = { ...common, session_id: sessionId, channel_id: idParam };
const bufferedVideo = { ...buffered, session_id: sessionId, content_id: idParam };
const bufferedLive = { ...buffered, session_id: sessionId, channel_id: idParam };

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

const playerEvent = (base: typeof bufferedVideo | typeof bufferedLive) =>
  batched(
    z.object({
      ...base,
      type: z.enum(PLAYER_EVENT_TYPES, { error: `type must be one of: ${PLAYER_EVENT_TYPES.join(', ')}` }),
      position_seconds: z.optional(position),
      /** On rebufferend: how long playback stalled. */
      rebuffer_ms: z.optional(whole(0, 3_600_000)),
    }),
  );

const batch = <T extends z.ZodMiniType>(event: T) =>
  z.object({
    events: z
      .array(event)
      .check(
        z.minLength(1, { error: 'events must not be empty' }),
        z.maxLength(MAX_BATCH, { error: `at most ${MAX_BATCH} events per batch` }),
      ),
  });

export const videoStartBody = z.object({
  ...common,
  content_id: idParam,
  position_seconds: z.optional(position),
  autoplay: z.optional(z.boolean()),
});
export const videoHeartbeatBody = z.object({
  ...video,
  position_seconds: position,
  playing_seconds: seconds,
  rebuffer_seconds: z.optional(seconds),
});
export const videoEventsBody = batch(playerEvent(bufferedVideo));
export const videoQualityBody = z.object({
  ...video,
  position_seconds: z.optional(position),
  bitrate_kbps: whole(1, 200_000),
  width: whole(1, 16_384),
  height: whole(1, 16_384),
});
export const videoErrorBody = z.object({
  ...video,
  position_seconds: z.optional(position),
  code: z.string().check(z.minLength(1), z.maxLength(64)),
  message: z.string().check(z.maxLength(1000)),
  fatal: z.boolean(),
});
export const videoAdsBody = batch(
  batched(
    z.object({
      ...bufferedVideo,
      type: z.enum(AD_EVENT_TYPES, { error: `type must be one of: ${AD_EVENT_TYPES.join(', ')}` }),
      position_seconds: z.optional(position),
      ad_id: z.optional(z.string().check(z.maxLength(128))),
    }),
  ),
);
export const videoEndBody = z.object({
  ...video,
  position_seconds: position,
  playing_seconds: z.optional(seconds),
  reason: z.enum(['completed', 'user_exit', 'error', 'background']),
});

export const liveStartBody = z.object({ ...common, channel_id: idParam });
export const liveHeartbeatBody = z.object({
  ...live,
  playing_seconds: seconds,
  rebuffer_seconds: z.optional(seconds),
});
export const liveEventsBody = batch(
  z.discriminatedUnion('type', [
    playerEvent(bufferedLive),
    batched(
      z.object({
        ...bufferedLive,
        type: z.literal('reaction'),
        emoji: z.string().check(z.minLength(1), z.maxLength(32)),
      }),
    ),
    batched(z.object({ ...bufferedLive, type: z.literal('epg_change'), program_id: idParam })),
  ]),
);
export const liveEndBody = z.object({
  ...live,
  playing_seconds: z.optional(seconds),
  reason: z.enum(['user_exit', 'error', 'background', 'stream_ended']),
});
