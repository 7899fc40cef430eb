import * as z from 'zod/mini';
import { described, named, responseSchemas, responsesNotBundled } from '../http/schema-meta.ts';
import { oneEmoji } from '../reactions/schemas.ts';

/** `POST /creators/{id}/channel/live/reactions`: one emoji. */
export const liveReactionBody = z.object({
  emoji: described(oneEmoji, 'Exactly one emoji, counted into the current tick of the channel', '🔥'),
});
export type LiveReactionInput = z.infer<typeof liveReactionBody>;

/** The response schemas (built for the document and the tests only; Lambda bundles leave them out). */
const buildResponses = () => {
  const LiveReactionCounted = named(
    'LiveReactionCounted',
    z.object({
      creator_id: described(z.string(), 'The creator whose channel the reaction was counted on', 'cr_0001'),
      emoji: described(z.string(), 'The emoji counted', '🔥'),
      tick: described(z.number().check(z.int()), 'The tick it was counted in (epoch seconds / 5)', 357418080),
      tick_seconds: described(z.number().check(z.int()), 'The length of a tick', 5),
    }),
    "A live reaction counted into its tick's totals; subscribers see the totals in the channel's next `reactions` message",
  );
  const RealtimeAccess = named(
    'RealtimeAccess',
    z.object({
      endpoint: described(
        z.string(),
        'The Event API\'s real-time WebSocket endpoint: connect with the subprotocols `aws-appsync-event-ws` and `header-<base64url of {"host", "Authorization": auth.token}>`',
        'wss://example.appsync-realtime-api.us-east-1.amazonaws.com/event/realtime',
      ),
      host: described(
        z.string(),
        'The `host` to put in the authorization header (the API host)',
        'example.appsync-api.us-east-1.amazonaws.com',
      ),
      channel: described(z.string(), "The creator's channel to subscribe to", '/live/cr-0001'),
      home_channel: described(z.string(), "The live list's channel (the same token admits it)", '/live/home'),
      tick_seconds: described(
        z.number().check(z.int()),
        'At most one message per kind per channel per tick',
        5,
      ),
      message_version: described(
        z.number().check(z.int()),
        'The payload schema version (`v`) of the messages',
        1,
      ),
      auth: z.object({
        type: described(z.literal('AWS_LAMBDA'), 'The authorisation mode: a token our authoriser checks'),
        token: described(
          z.string(),
          'The `Authorization` value for the connection and each subscribe',
          'eyJhbGciOiJFUzI1NiJ9...',
        ),
        expires_at: described(
          z.string(),
          'When the token stops admitting new connections and subscriptions (ISO)',
          '2026-11-29T08:15:00.000Z',
        ),
      }),
    }),
    "How to subscribe to a creator's live channel: the endpoint, the channel and a short-lived token for it",
  );
  return { LiveReactionCounted, RealtimeAccess };
};
export const realtimeResponses =
  process.env.LAMBDA_BUNDLE_RESPONSES === 'none' ? responsesNotBundled : responseSchemas(buildResponses);
type Built = ReturnType<typeof buildResponses>;
export type LiveReactionCounted = z.infer<Built['LiveReactionCounted']>;
export type RealtimeAccess = z.infer<Built['RealtimeAccess']>;
