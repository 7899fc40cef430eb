import * as z from 'zod/mini';
import { described, named, responseSchemas, responsesNotBundled } from '../schema/schema-meta.ts';
import { oneEmoji } from '../reactions/schemas.ts';
import { hasControlCharacter } from '../schema/characters.ts';

/** `POST /creators/{id}/channel/live/reactions`: one emoji. */
export const liveReactionBody = /* @__PURE__ */ (() =>
  z.object({
    emoji: described(oneEmoji, 'Exactly one emoji, counted into the current tick of the channel', '🔥'),
  }))();
export type LiveReactionInput = z.infer<typeof liveReactionBody>;

/** The IVS timed metadata limit a cue's JSON must fit (shared/realtime/cues.ts). */
export const CUE_MAX_BYTES = 1024;
/**
 * How deep a cue's payload may nest (objects and arrays): checked first, without recursion, so
 * the walks below (the display-text check, the size's JSON.stringify) never run out of stack on
 * a body nested thousands deep (a 500 before).
 */
export const CUE_MAX_DEPTH = 32;

/** Is `value` nested deeper than `max` levels of objects and arrays? An explicit stack, no recursion. */
const deeperThan = (value: unknown, max: number): boolean => {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  for (let next = stack.pop(); next; next = stack.pop()) {
    if (next.value === null || typeof next.value !== 'object') continue;
    if (next.depth >= max) return true;
    for (const item of Object.values(next.value)) stack.push({ value: item, depth: next.depth + 1 });
  }
  return false;
};

/**
 * Where in a cue's payload the first string holding a control character (tab and line breaks
 * allowed) or a bidi override is: the payload is free JSON that players may show, so every string
 * in it, keys and values at any depth, is display text by the rules chat message attributes follow
 * (docs/realtime.md "Cues", docs/conventions.md "Display text"). Undefined when there is none.
 */
const unsafeTextAt = (value: unknown, path: (string | number)[]): (string | number)[] | undefined => {
  if (typeof value === 'string') return hasControlCharacter(value, true) ? path : undefined;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = unsafeTextAt(item, [...path, i]);
      if (found) return found;
    }
    return undefined;
  }
  if (value !== null && typeof value === 'object')
    for (const [key, item] of Object.entries(value)) {
      if (hasControlCharacter(key, true)) return [...path, key];
      const found = unsafeTextAt(item, [...path, key]);
      if (found) return found;
    }
  return undefined;
};

/** `POST /studio/channel/cues`: a cue type and its payload, at most 1 KB together as JSON. */
export const cueBody = /* @__PURE__ */ (() =>
  z
    .object({
      type: described(
        z.string().check(
          z.regex(/^[a-z][a-z0-9_.-]{0,39}$/, {
            error: 'type must be 1-40 lower-case letters, digits, _ . - (a letter first)',
          }),
        ),
        'What the cue is, for the player (`poll.open`, `product.show`, ...)',
        'poll.open',
      ),
      payload: described(
        z._default(z.record(z.string(), z.unknown()), {}),
        `Anything the player needs for it (JSON object, objects and arrays nested at most ${CUE_MAX_DEPTH} levels deep). Its strings, keys and values at any depth, are display text: no control characters (other than tab and line breaks) and no bidi override or isolate characters (U+202A-U+202E, U+2066-U+2069), else 422 naming where`,
        { poll_id: 'p1', question: 'Encore?' },
      ),
    })
    .check(
      z.superRefine((cue, ctx) => {
        if (deeperThan(cue.payload, CUE_MAX_DEPTH)) {
          ctx.addIssue({
            code: 'custom',
            path: ['payload'],
            message: `must not nest objects and arrays more than ${CUE_MAX_DEPTH} levels deep`,
          });
          return;
        }
        const at = unsafeTextAt(cue.payload, ['payload']);
        if (at)
          ctx.addIssue({
            code: 'custom',
            path: at,
            message:
              'must not contain control characters (other than tab and line breaks) or bidirectional override or isolate characters (U+202A-U+202E, U+2066-U+2069)',
          });
        if (Buffer.byteLength(JSON.stringify(cue)) > CUE_MAX_BYTES)
          ctx.addIssue({
            code: 'custom',
            path: ['payload'],
            message: 'the cue is over 1 KB as JSON (IVS timed metadata limit)',
          });
      }),
    ))();
export type CueInput = z.infer<typeof cueBody>;

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
  const CueSent = named(
    'CueSent',
    z.object({
      type: described(z.string(), 'The cue type', 'poll.open'),
      scheduled_at: described(
        z.string(),
        'The second the scheduler booked for it in the IVS budget (ISO, a whole second)',
        '2026-11-29T08:00:01.000Z',
      ),
      sent_at: described(
        z.string(),
        'When IVS took it into the stream (ISO): players show it at that moment of the picture',
        '2026-11-29T08:00:01.000Z',
      ),
      bytes: described(z.number().check(z.int()), 'Its size as timed metadata (at most 1024)', 54),
    }),
    'A cue put into the live stream as IVS timed metadata',
  );
  return { LiveReactionCounted, RealtimeAccess, CueSent };
};
export const realtimeResponses =
  process.env.LAMBDA_BUNDLE_RESPONSES === 'none' ? responsesNotBundled : responseSchemas(buildResponses);
type Built = ReturnType<typeof buildResponses>;
export type LiveReactionCounted = z.infer<Built['LiveReactionCounted']>;
export type RealtimeAccess = z.infer<Built['RealtimeAccess']>;
export type CueSent = z.infer<Built['CueSent']>;
