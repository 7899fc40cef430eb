import * as z from 'zod';
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
const position = z.number().min(0).max(1e7);
const seconds = z.number().min(0).max(3600);
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
    position_seconds: position.optional(),
    /** On rebufferend: how long playback stalled. */
    rebuffer_ms: z.number().int().min(0).max(3_600_000).optional(),
  });

const batch = <T extends z.ZodType>(event: T) =>
  z.object({
    events: z
      .array(event)
      .min(1, { error: 'events must not be empty' })
      .max(MAX_BATCH, { error: `at most ${MAX_BATCH} events per batch` }),
  });

export const videoStartBody = z.object({
  ...common,
  content_id: idParam,
  position_seconds: position.optional(),
  autoplay: z.boolean().optional(),
});
export const videoHeartbeatBody = z.object({
  ...video,
  position_seconds: position,
  playing_seconds: seconds,
  rebuffer_seconds: seconds.optional(),
});
export const videoEventsBody = batch(playerEvent(video));
export const videoQualityBody = z.object({
  ...video,
  position_seconds: position.optional(),
  bitrate_kbps: z.number().int().min(1).max(200_000),
  width: z.number().int().min(1).max(16_384),
  height: z.number().int().min(1).max(16_384),
});
export const videoErrorBody = z.object({
  ...video,
  position_seconds: position.optional(),
  code: z.string().min(1).max(64),
  message: z.string().max(1000),
  fatal: z.boolean(),
});
export const videoAdsBody = batch(
  z.object({
    ...video,
    type: z.enum(AD_EVENT_TYPES, { error: `type must be one of: ${AD_EVENT_TYPES.join(', ')}` }),
    position_seconds: position.optional(),
    ad_id: z.string().max(128).optional(),
  }),
);
export const videoEndBody = z.object({
  ...video,
  position_seconds: position,
  playing_seconds: seconds.optional(),
  reason: z.enum(['completed', 'user_exit', 'error', 'background']),
});

export const liveStartBody = z.object({ ...common, channel_id: idParam });
export const liveHeartbeatBody = z.object({
  ...live,
  playing_seconds: seconds,
  rebuffer_seconds: seconds.optional(),
});
export const liveEventsBody = batch(
  z.discriminatedUnion('type', [
    playerEvent(live),
    z.object({ ...live, type: z.literal('reaction'), emoji: z.string().min(1).max(32) }),
    z.object({ ...live, type: z.literal('epg_change'), program_id: idParam }),
  ]),
);
export const liveEndBody = z.object({
  ...live,
  playing_seconds: seconds.optional(),
  reason: z.enum(['user_exit', 'error', 'background', 'stream_ended']),
});
