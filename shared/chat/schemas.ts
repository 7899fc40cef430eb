import * as z from 'zod/mini';
import { described, named, responseSchemas, responsesNotBundled } from '../schema/schema-meta.ts';
import { idParam } from '../schema/validation.ts';
import { displayText, withoutDuplicates } from '../schema/display-text.ts';
import { CHAT_CAPABILITIES, READ_ONLY_REASONS } from './policy.ts';

/** Live chat (docs/chat.md): request schemas, and the responses built on first use. */

/** Most blocked terms a channel may set, and their length (characters). */
export const MAX_BLOCKED_TERMS = 200;
export const MAX_BLOCKED_TERM_LENGTH = 50;
/** Longest ban: two weeks as a timeout (longer is a permanent ban, `duration_seconds: null`). */
export const MAX_BAN_SECONDS = 14 * 24 * 3600;
const WEEK_MINUTES = 7 * 24 * 60;
const YEAR_MINUTES = 365 * 24 * 60;

const whole = (name: string, min: number, max: number) =>
  z
    .number({ error: `${name} must be a whole number between ${min} and ${max}` })
    .check(
      z.int({ error: `${name} must be a whole number between ${min} and ${max}` }),
      z.minimum(min, { error: `${name} must be a whole number between ${min} and ${max}` }),
      z.maximum(max, { error: `${name} must be a whole number between ${min} and ${max}` }),
    );

/** `PUT /studio/chat/settings`: the whole settings (a field left out is reset to off). */
export const chatSettingsBody = /* @__PURE__ */ (() =>
  z.object({
    slow_mode_seconds: described(
      z._default(whole('slow_mode_seconds', 0, 600), 0),
      'Seconds a viewer waits between two messages (0: off; the creator and moderators are exempt)',
      10,
    ),
    followers_only_minutes: described(
      z._default(z.nullable(whole('followers_only_minutes', 0, 3 * 30 * 24 * 60)), null),
      'Only followers of at least this many minutes may send (0: any follower; null: off)',
      10,
    ),
    subscribers_only: described(
      z._default(z.boolean({ error: 'subscribers_only must be true or false' }), false),
      'Only subscribers (an entitlement that grants now) may send',
      false,
    ),
    emote_only: described(
      z._default(z.boolean({ error: 'emote_only must be true or false' }), false),
      'Messages may hold only emotes (`:name:` codes and emoji) and spaces',
      false,
    ),
    established_only_minutes: described(
      z._default(z.nullable(whole('established_only_minutes', 0, YEAR_MINUTES)), null),
      'Only accounts at least this old (minutes) may send (null: off)',
      WEEK_MINUTES,
    ),
    blocked_terms: described(
      z._default(
        z
          .array(
            displayText({
              name: 'each blocked term',
              min: 1,
              max: MAX_BLOCKED_TERM_LENGTH,
              errors: {
                type: 'each blocked term must be text',
                min: `each blocked term must be 1-${MAX_BLOCKED_TERM_LENGTH} characters`,
                max: `each blocked term must be 1-${MAX_BLOCKED_TERM_LENGTH} characters`,
              },
            }),
            { error: 'blocked_terms must be a list of terms' },
          )
          .check(
            withoutDuplicates,
            z.maxLength(MAX_BLOCKED_TERMS, {
              error: `blocked_terms holds at most ${MAX_BLOCKED_TERMS} terms`,
            }),
          ),
        [],
      ),
      'Terms refused in messages, matched after folding case, accents and look-alike characters',
      ['spoiler'],
    ),
  }))();

/** Which channel a studio chat route acts on: the caller's own, or one they moderate. */
export const studioChatQuery = /* @__PURE__ */ (() =>
  z.object({
    channel: z.optional(
      described(
        z.string().check(
          z.regex(/^(acc|cr)_[A-Za-z0-9_-]{1,64}$/, {
            error: 'channel must be a creator id (acc_… or cr_…)',
          }),
        ),
        "The creator id of a channel the caller moderates (default: the caller's own channel)",
        'acc_0123456789ab',
      ),
    ),
  }))();

export const accountPath = /* @__PURE__ */ (() =>
  z.object({
    account_id: described(idParam, 'The account (a viewer of the chat)', 'acc_0123456789ab'),
  }))();

export const messagePath = /* @__PURE__ */ (() =>
  z.object({
    // IVS Chat's DeleteMessage takes exactly 12 letters or digits and answers any other id a
    // ValidationException: checked here, so a wrong id is a 400 and never reaches IVS.
    message_id: described(
      z.string().check(
        z.regex(/^[A-Za-z0-9]{12}$/, {
          error: 'message_id must be 12 letters or digits (an IVS Chat message id)',
        }),
      ),
      'The IVS Chat message id (from the MESSAGE frame): 12 letters or digits',
      'QpUjHvz7Vcc7',
    ),
  }))();

export const deleteMessageQuery = /* @__PURE__ */ (() =>
  z.object({
    ...studioChatQuery.shape,
    reason: z.optional(
      described(
        displayText({ name: 'reason', min: 1, max: 256 }),
        'Why (sent to clients with the deletion)',
        'spam',
      ),
    ),
  }))();

export const banBody = /* @__PURE__ */ (() =>
  z.object({
    account_id: described(
      idParam,
      'The account to ban (by account: a ban survives name changes)',
      'acc_0123456789ab',
    ),
    duration_seconds: described(
      z.nullable(whole('duration_seconds', 1, MAX_BAN_SECONDS)),
      'A timeout of this many seconds; null: banned until lifted',
      600,
    ),
    reason: described(
      displayText({
        name: 'reason',
        min: 1,
        max: 200,
        errors: {
          type: 'reason must be text',
          min: 'reason must be 1-200 characters',
          max: 'reason must be 1-200 characters',
        },
      }),
      'Why (recorded, and sent to the user when disconnected)',
      'spam',
    ),
  }))();

const buildResponses = () => {
  const instant = (description: string, example: string) => described(z.string(), description, example);
  const ChatToken = named(
    'ChatToken',
    z.object({
      token: described(z.string(), 'The IVS Chat token: the WebSocket subprotocol, used once', 'ACEQ...'),
      token_expires_at: instant('Connect before then', '2026-11-29T18:01:00.000Z'),
      session_expires_at: instant(
        'The connection ends then: ask for a new token (the rules apply again)',
        '2026-11-29T19:00:00.000Z',
      ),
      endpoint: described(
        z.string(),
        'The IVS Chat messaging WebSocket to connect to with the token',
        'wss://edge.ivschat.us-east-1.amazonaws.com',
      ),
      capabilities: described(
        z.array(z.enum(CHAT_CAPABILITIES)),
        'What the token allows: none reads only; SEND_MESSAGE; the creator and moderators also DELETE_MESSAGE and DISCONNECT_USER',
        ['SEND_MESSAGE'],
      ),
      read_only_reason: described(
        z.nullable(z.enum(READ_ONLY_REASONS)),
        'Why the token cannot send (sign in; followers-, subscribers- or established-only), or null',
        null,
      ),
    }),
    'A chat token for the channel, with what it allows',
  );
  const ChatSettings = named(
    'ChatSettings',
    z.object({
      slow_mode_seconds: z.number(),
      followers_only_minutes: z.nullable(z.number()),
      subscribers_only: z.boolean(),
      emote_only: z.boolean(),
      established_only_minutes: z.nullable(z.number()),
      blocked_terms: z.array(z.string()),
    }),
    "The channel's chat rules",
  );
  const ChatModerator = named(
    'ChatModerator',
    z.object({
      account_id: described(z.string(), 'The moderator', 'acc_0123456789ab'),
      added_by: described(z.string(), 'The creator who appointed them', 'acc_ba9876543210'),
      added_at: instant('When', '2026-11-29T18:00:00.000Z'),
    }),
    'A chat moderator of the channel',
  );
  const ChatBan = named(
    'ChatBan',
    z.object({
      account_id: described(z.string(), 'The banned account', 'acc_0123456789ab'),
      until: described(z.nullable(z.string()), 'End of a timeout; null: until lifted', null),
      reason: described(z.string(), 'Why', 'spam'),
      by: described(z.string(), 'Who banned (the creator or a moderator)', 'acc_ba9876543210'),
      at: instant('When', '2026-11-29T18:00:00.000Z'),
    }),
    'A ban from the channel chat: no token, disconnected, recent messages removed',
  );
  return { ChatToken, ChatSettings, ChatModerator, ChatBan };
};

export const chatResponses =
  process.env.LAMBDA_BUNDLE_RESPONSES === 'none' ? responsesNotBundled : responseSchemas(buildResponses);
type Built = ReturnType<typeof buildResponses>;
export type ChatToken = z.infer<Built['ChatToken']>;
