import { describe, expect, it } from 'vitest';
import { ONE_EMOJI, reactionBody } from '../../shared/reactions/schemas.ts';

describe('one emoji (reaction bodies)', () => {
  it('accepts single emoji sequences: plain, skin tone, ZWJ family, flag, keycap, tag flag, with VS16', () => {
    for (const emoji of ['🔥', '👍🏽', '👨‍👩‍👧‍👦', '🧑🏿‍🚀', '🇫🇷', '1️⃣', '#️⃣', '🏴󠁧󠁢󠁳󠁣󠁴󠁿', '❤️', '😂', '🫶'])
      expect(ONE_EMOJI.test(emoji), emoji).toBe(true);
  });

  it('refuses text, several emojis, half a flag, padding and bare digits', () => {
    for (const emoji of ['fire', '🔥🔥', '👍🏽👍', '🇫', ' 🔥', '🔥 ', '1', '#', '', 'a🔥', '\u200D🔥'])
      expect(ONE_EMOJI.test(emoji), JSON.stringify(emoji)).toBe(false);
  });

  it('is the emoji rule of the reaction body, with its message', () => {
    const result = reactionBody.safeParse({ targetType: 'VIDEO', targetId: 'ep_1', emoji: '🔥🔥' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({
      path: ['emoji'],
      message: 'emoji must be exactly one emoji',
    });
  });
});
