import * as z from 'zod/mini';
import { DEVICE_TYPES } from '../catalog/model.ts';
import { idParam } from '../http/validation.ts';

/**
 * Analytics request schemas (docs/analytics.md). Every event carries a client-generated
 * `event_id` (UUID, for de-duplication downstream), the session, the content or channel, the
 * device, the client timestamp and, where it applies, the playhead. Event types follow the
 * common player-event model (Mux/Video.js-style names).
 */
export const MAX_BATCH = 100;

const common = {
  event_id: z.uuid({ error: 'event_id must be a UUID' }),
  device_type: z.enum(DEVICE_TYPES, { error: `device_type must be one of: ${DEVICE_TYPES.join(', ')}` }),
  client_ts: z.iso.datetime({ offset: true, error: 'client_ts must be an ISO 8601 timestamp' }),
};
const sessionId = z.uuid({ error: 'session_id must be the id returned by session/start' });
const position = z.number().check(z.minimum(0), z.maximum(1e7));
const seconds = z.number().check(z.minimum(0), z.maximum(3600));
/** A whole number in `min`..`max`. */
const whole = (min: number, max: number) => z.int().check(z.minimum(min), z.maximum(max));
const video = { ...common, session_id: sessionId, content_id: idParam };
const live = { ...common, session_id: sessionId, channel_id: idParam };

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

const playerEvent = (base: typeof video | typeof live) =>
  z.object({
    ...base,
    type: z.enum(PLAYER_EVENT_TYPES, { error: `type must be one of: ${PLAYER_EVENT_TYPES.join(', ')}` }),
    position_seconds: z.optional(position),
    /** On rebufferend: how long playback stalled. */
    rebuffer_ms: z.optional(whole(0, 3_600_000)),
  });

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
export const videoEventsBody = batch(playerEvent(video));
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
  z.object({
    ...video,
    type: z.enum(AD_EVENT_TYPES, { error: `type must be one of: ${AD_EVENT_TYPES.join(', ')}` }),
    position_seconds: z.optional(position),
    ad_id: z.optional(z.string().check(z.maxLength(128))),
  }),
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
    playerEvent(live),
    z.object({
      ...live,
      type: z.literal('reaction'),
      emoji: z.string().check(z.minLength(1), z.maxLength(32)),
    }),
    z.object({ ...live, type: z.literal('epg_change'), program_id: idParam }),
  ]),
);
export const liveEndBody = z.object({
  ...live,
  playing_seconds: z.optional(seconds),
  reason: z.enum(['user_exit', 'error', 'background', 'stream_ended']),
});
