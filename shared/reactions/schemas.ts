import * as z from 'zod/mini';
import { idParam } from '../http/validation.ts';

/** Reaction target types (spec 2.3). */
export const TARGET_TYPES = ['VIDEO', 'POST', 'COMMENT', 'SERIES'] as const;

/**
 * Exactly one emoji sequence (the UTS #51 grammar: a pictographic with an optional presentation
 * selector or skin tone, ZWJ-joined; a flag; a keycap; a tag sequence such as 🏴󠁧󠁢󠁳󠁣󠁴󠁿). Not
 * `\p{RGI_Emoji}` with the `v` flag: building that set costs ~25 ms at every cold start.
 */
const PICTO = String.raw`\p{Extended_Pictographic}(?:\uFE0F|\p{Emoji_Modifier})?`;
export const ONE_EMOJI = new RegExp(
  String.raw`^(?:\p{Regional_Indicator}{2}|[#*0-9]\uFE0F?\u20E3|\u{1F3F4}[\u{E0020}-\u{E007E}]+\u{E007F}|${PICTO}(?:\u200D${PICTO})*)$`,
  'u',
);

const targetType = z.enum(TARGET_TYPES, { error: `targetType must be one of: ${TARGET_TYPES.join(', ')}` });

export const reactionBody = z.object({
  targetType,
  targetId: idParam,
  emoji: z.string().check(z.maxLength(64), z.regex(ONE_EMOJI, { error: 'emoji must be exactly one emoji' })),
});

export const reactionSummaryPath = z.object({ targetType, targetId: idParam });

export type ReactionInput = z.infer<typeof reactionBody>;
