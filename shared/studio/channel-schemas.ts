import * as z from 'zod/mini';
import { described, named, responseSchemas, responsesNotBundled } from '../schema/schema-meta.ts';

/** The creator studio's live channel on Amazon IVS (docs/live.md "Channels on IVS"): responses. */

/** What a rotation that lost to a concurrent one is told (409; shared/studio/channel-writes.ts). */
export const ROTATED_CONCURRENTLY =
  'Another request replaced the stream key at the same moment: GET /studio/channel shows the current one';

/**
 * The response schemas, built on the first call of the export below: only the OpenAPI document
 * and the tests call it (through the contracts' `responses`); Lambda bundles leave them out
 * (`responseSchemas`, shared/schema/schema-meta.ts).
 */
const buildResponses = () => {
  const text = (description: string, example: string) => described(z.string(), description, example);

  const StudioChannel = named(
    'StudioChannel',
    z.object({
      channel_arn: text('The IVS channel', 'arn:aws:ivs:us-east-1:123456789012:channel/AbCdEf123456'),
      ingest_endpoint: text('IVS ingest server', 'a1b2c3d4e5f6.global-contribute.live-video.net'),
      ingest_url: text(
        'Where the encoder sends the stream (RTMPS, port 443): server URL for OBS and the like',
        'rtmps://a1b2c3d4e5f6.global-contribute.live-video.net:443/app/',
      ),
      stream_key: text(
        "The channel's stream key: a secret, shown to its owner only, never stored by the platform; rotate it if it leaks",
        'sk_us-east-1_ExAmPlEkEy0123456789',
      ),
      playback_url: text(
        'The IVS playback URL (a private channel: players get it with a token from a watch session)',
        'https://a1b2c3d4e5f6.us-east-1.playback.live-video.net/api/video/v1/us-east-1.123456789012.channel.AbCdEf123456.m3u8',
      ),
      chat_room_arn: described(
        z.nullable(z.string()),
        "The channel's IVS Chat room; null while it has none (a channel made before chat, until the operator's `chat-rooms`; a suspended creator's)",
        'arn:aws:ivschat:us-east-1:123456789012:room/AbCdEf123456',
      ),
      latency_mode: described(z.literal('low'), 'IVS low-latency streaming', 'low'),
      is_live: described(z.boolean(), 'The channel is broadcasting now (from IVS events)', false),
      stream: described(
        z.nullable(
          z.object({
            stream_id: text('The IVS stream id', 'st-1AbCdEf2GhIjK'),
            title: text('Stream title', 'Jonas Vargas is live'),
            started_at: text('When the stream started (ISO 8601)', '2026-11-24T07:00:00.000Z'),
          }),
        ),
        'The current stream; null when offline',
        null,
      ),
      stream_health: described(
        z.enum(['healthy', 'starving', 'offline']),
        'Ingest health: `starving` when IVS gets too little data from the encoder',
        'offline',
      ),
    }),
    "The caller's live channel on IVS, with its ingest settings and stream key",
  );
  return { StudioChannel };
};
export const channelResponses =
  process.env.LAMBDA_BUNDLE_RESPONSES === 'none' ? responsesNotBundled : responseSchemas(buildResponses);
export type StudioChannel = z.infer<ReturnType<typeof buildResponses>['StudioChannel']>;
