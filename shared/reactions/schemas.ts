import * as z from 'zod/mini';
import { described, named, responseSchemas, responsesNotBundled } from '../schema/schema-meta.ts';
import { idParam } from '../schema/validation.ts';

/** Reaction target types (spec 2.3). */
export const TARGET_TYPES = ['VIDEO', 'POST', 'COMMENT', 'SERIES'] as const;

/**
 * Exactly one emoji sequence (the UTS #51 grammar: a pictographic with an optional presentation
 * selector or skin tone, ZWJ-joined; a flag; a keycap; a tag sequence such as 🏴󠁧󠁢󠁳󠁣󠁴󠁿). Not
 * `\p{RGI_Emoji}` with the `v` flag: building that set costs ~25 ms at every cold start.
 */
const PICTO = /* @__PURE__ */ (() => String.raw`\p{Extended_Pictographic}(?:\uFE0F|\p{Emoji_Modifier})?`)();
export const ONE_EMOJI = /* @__PURE__ */ (() =>
  new RegExp(
    String.raw`^(?:\p{Regional_Indicator}{2}|[#*0-9]\uFE0F?\u20E3|\u{1F3F4}[\u{E0020}-\u{E007E}]+\u{E007F}|${PICTO}(?:\u200D${PICTO})*)$`,
    'u',
  ))();

const targetType = /* @__PURE__ */ (() =>
  described(
    z.enum(TARGET_TYPES, { error: `targetType must be one of: ${TARGET_TYPES.join(', ')}` }),
    'Kind of content reacted to',
    'VIDEO',
  ))();
const targetId = /* @__PURE__ */ described(
  idParam,
  'Id of the content (an episode id for `VIDEO`)',
  'ep_0001_s1e01',
);

/**
 * The emoji rule is a refinement, not `z.regex`: the document would carry ONE_EMOJI's source as
 * `pattern`, which uses `u`-flag syntax (`\p{...}`, `\u{...}`) that JSON Schema's ECMA-262
 * patterns (no flags) do not accept. The description names the rule instead.
 */
const emoji = /* @__PURE__ */ (() =>
  described(
    z.string().check(
      z.maxLength(64),
      z.refine((value) => ONE_EMOJI.test(value), { error: 'emoji must be exactly one emoji' }),
    ),
    'Exactly one emoji (one UTS #51 emoji sequence: a pictograph with an optional variation selector or skin tone, or a ZWJ sequence of those; a flag; a keycap; a tag sequence), at most 64 UTF-16 code units',
    '🔥',
  ))();

/** One emoji (the rule above), for other bodies that carry one (live reactions: shared/realtime/schemas.ts). */
export const oneEmoji = emoji;

export const reactionBody = /* @__PURE__ */ (() => z.object({ targetType, targetId, emoji }))();

export const reactionSummaryPath = /* @__PURE__ */ (() => z.object({ targetType, targetId }))();

export type ReactionInput = z.infer<typeof reactionBody>;

/**
 * Different emoji one account may put on one piece of content (`POST /v3/reactions`, 409 past it).
 * Any emoji sequence is a reaction (ZWJ sequences make them countless), and each distinct one is
 * an entry of the target's summary: without a bound, one account at the route's 60 a minute grew
 * a summary by 86,400 entries a day, past what one answer (Lambda's 6 MB) and one Query page per
 * counter shard (1 MB) hold.
 */
export const MAX_EMOJI_PER_TARGET = 20;
export const TOO_MANY_EMOJI = `At most ${MAX_EMOJI_PER_TARGET} different emoji on one item: remove one first`;

// ---- Responses -------------------------------------------------------------------------------

/**
 * The response schemas, built on the first call of the export below: only the OpenAPI document
 * and the tests call it (through the contracts' `responses`); Lambda bundles leave them out
 * (`responseSchemas`, shared/schema/schema-meta.ts).
 */
const buildResponses = () => {
  const targetTypeOut = described(z.enum(TARGET_TYPES), 'Kind of content', 'VIDEO');
  const targetIdOut = described(z.string(), 'Id of the content', 'ep_0001_s1e01');

  const Reaction = named(
    'Reaction',
    z.object({
      targetType: targetTypeOut,
      targetId: targetIdOut,
      emoji: described(z.string(), 'The emoji', '🔥'),
      reacted: described(z.literal(true), 'The caller has this reaction now'),
    }),
    "The caller's reaction on a piece of content",
  );

  const ReactionSummary = named(
    'ReactionSummary',
    z.object({
      targetType: targetTypeOut,
      targetId: targetIdOut,
      summary: described(
        z.array(
          z.object({
            emoji: described(z.string(), 'The emoji', '🔥'),
            count: described(z.number().check(z.int()), 'Accounts that reacted with it (at least 1)', 12),
          }),
        ),
        'One entry per emoji used, most used first (ties by emoji); empty without reactions',
      ),
      total: described(z.number().check(z.int()), 'Reactions of every emoji together', 17),
      userReactions: described(z.array(z.string()), 'The emojis the caller put on this content', ['🔥']),
    }),
    "Reaction counts on a piece of content, and the caller's own",
  );
  return { Reaction, ReactionSummary };
};
export const reactionResponses =
  process.env.LAMBDA_BUNDLE_RESPONSES === 'none' ? responsesNotBundled : responseSchemas(buildResponses);
type Built = ReturnType<typeof buildResponses>;

export type Reaction = z.infer<Built['Reaction']>;
export type ReactionSummary = z.infer<Built['ReactionSummary']>;
