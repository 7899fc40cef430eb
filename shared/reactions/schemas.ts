import * as z from 'zod';
import { idParam } from '../http/validation.ts';

/** Reaction target types (spec 2.3). */
export const TARGET_TYPES = ['VIDEO', 'POST', 'COMMENT', 'SERIES'] as const;

/** Exactly one emoji (an RGI emoji sequence: skin tones, ZWJ families and flags count as one). */
const ONE_EMOJI = /^\p{RGI_Emoji}$/v;

export const reactionBody = z.object({
  targetType: z.enum(TARGET_TYPES, { error: `targetType must be one of: ${TARGET_TYPES.join(', ')}` }),
  targetId: idParam,
  emoji: z.string().max(64).regex(ONE_EMOJI, { error: 'emoji must be exactly one emoji' }),
});

export const reactionSummaryPath = z.object({
  targetType: z.enum(TARGET_TYPES, { error: `targetType must be one of: ${TARGET_TYPES.join(', ')}` }),
  targetId: idParam,
});

export type ReactionInput = z.infer<typeof reactionBody>;
