import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_CHAT_SETTINGS } from '../../shared/chat/chat-repository.ts';
import * as repository from '../../shared/chat/chat-repository.ts';
import * as entitlements from '../../shared/entitlements/entitlement-repository.ts';
import * as creators from '../../shared/creators/creator-repository.ts';
import {
  foldTerms,
  foldText,
  hasBlockedTerm,
  MAX_MESSAGE_CHARS,
  reviewMessage,
} from '../../shared/chat/review.ts';
import { REVIEW_FALLBACK } from '../../shared/chat/rooms.ts';
import { handler } from '../../functions/chat/review-message.ts';
import { LOAD_BUDGET_MS } from '../../shared/chat/review-runtime.ts';

const ROOM = 'arn:aws:ivschat:us-east-1:000000000000:room/abc';
const event = (Content: string, badges = '', UserId = 'acc_v') => ({
  Content,
  RoomArn: ROOM,
  Sender: { UserId, Attributes: { display_name: 'v', badges } },
});
const settings = (s: Partial<typeof DEFAULT_CHAT_SETTINGS> = {}) => {
  const all = { ...DEFAULT_CHAT_SETTINGS, ...s };
  return { ...all, folded: foldTerms(all.blocked_terms) };
};

describe('the review rules (shared/chat/review.ts)', () => {
  it('blocked terms are found through case, accents, full-width, Cyrillic and Greek look-alikes, leet, invisible characters and separators', () => {
    const terms = foldTerms(['spoiler', 'bad word']);
    for (const text of [
      'SPOILER ahead',
      'spöiler',
      'ｓｐｏｉｌｅｒ',
      'ѕрօіlеr'.replace('օ', 'о'), // Cyrillic ѕ р о і е
      'sp0i1er',
      'spo\u200Biler',
      's.p.o.i.l.e.r',
      'what a BAD   WORD',
      'bad-word',
    ])
      expect(hasBlockedTerm(text, terms), text).toBe(true);
    for (const text of ['spoil the fun', 'a word that is bad', 'hello'])
      expect(hasBlockedTerm(text, terms), text).toBe(false);
    expect(foldText('Ｍａｙａ')).toBe('maya');
  });

  it('every DENY carries its reason; the creator and moderators are exempt from slow mode and emote-only, not from blocked terms', () => {
    const slow = new Map<string, number>();
    const s = settings({ slow_mode_seconds: 10, emote_only: true, blocked_terms: ['spoiler'] });
    expect(reviewMessage(event(':wave: 🎉'), s, 0, slow)).toEqual({ ReviewResult: 'ALLOW' });
    expect(reviewMessage(event(':wave:'), s, 5_000, slow)).toEqual({
      ReviewResult: 'DENY',
      Attributes: { Reason: 'slow_mode' },
    });
    expect(reviewMessage(event(':wave:'), s, 10_000, slow).ReviewResult).toBe('ALLOW');
    expect(reviewMessage(event('hello', '', 'acc_w'), s, 0, slow)).toMatchObject({
      Attributes: { Reason: 'emote_only' },
    });
    expect(reviewMessage(event('hello', 'moderator'), s, 10_001, slow).ReviewResult).toBe('ALLOW');
    expect(reviewMessage(event('hello', 'creator'), s, 10_002, slow).ReviewResult).toBe('ALLOW');
    expect(reviewMessage(event('spoiler', 'creator'), s, 0, slow)).toMatchObject({
      Attributes: { Reason: 'blocked_term' },
    });
    expect(reviewMessage(event('x'.repeat(MAX_MESSAGE_CHARS + 1), 'creator'), s, 0, slow)).toMatchObject({
      Attributes: { Reason: 'too_long' },
    });
    expect(reviewMessage(event('   '), s, 0, slow)).toMatchObject({ Attributes: { Reason: 'empty' } });
    expect(reviewMessage(event('\u200B\u200B \u2060', 'creator'), s, 0, slow)).toMatchObject({
      Attributes: { Reason: 'empty' },
    });
    // Blank fillers (Hangul fillers, the braille blank) and other characters that show nothing: the
    // usual way to post a blank message past an "empty" rule.
    for (const content of [
      '\u3164\u3164\u3164',
      '\uFFA0',
      '\u115F\u1160',
      '\u2800 \u2800',
      '\u034F\u180E\u2062\uFE0F',
      '\u17B4\u17B5',
    ])
      expect(reviewMessage(event(content, 'creator'), s, 0, slow), JSON.stringify(content)).toMatchObject({
        Attributes: { Reason: 'empty' },
      });
    // A right-to-left override makes "gpj.exe" read as "exe.jpg"; a NUL or escape controls terminals.
    for (const content of ['see \u202Egpj.exe', 'a\u0000b', 'x\u001B[2J', 'a\u2066b'])
      expect(reviewMessage(event(content, 'creator'), s, 0, slow), JSON.stringify(content)).toMatchObject({
        Attributes: { Reason: 'control_characters' },
      });
    // Letters of every script, emoji, accents and line breaks still pass.
    for (const content of ['مرحبا 👋', 'שלום', 'こんにちは', 'café\nolé', ':wave: 🎉'])
      expect(reviewMessage(event(content, 'creator'), s, 0, slow).ReviewResult, content).toBe('ALLOW');
    const subs = settings({ subscribers_only: true });
    expect(reviewMessage(event('hi', '', 'acc_s'), subs, 0, slow)).toMatchObject({
      Attributes: { Reason: 'subscribers_only' },
    });
    expect(reviewMessage(event('hi', 'subscriber', 'acc_s'), subs, 0, slow).ReviewResult).toBe('ALLOW');
  });
});

describe("a message's own attributes (every client receives them with it)", () => {
  it('are held to the content rules: control and bidi characters, blocked terms (were delivered unreviewed)', () => {
    const s = settings({ blocked_terms: ['spoiler'] });
    const withAttributes = (Attributes: Record<string, string>) => ({ ...event('hello'), Attributes });
    for (const Attributes of <Array<Record<string, string>>>[
      { display_name: 'Demo Creator\u202E' },
      { 'reply\u2066to': 'x' },
      { note: 'a\u0000b' },
    ])
      expect(reviewMessage(withAttributes(Attributes), s, 0, new Map()), JSON.stringify(Attributes)).toEqual({
        ReviewResult: 'DENY',
        Attributes: { Reason: 'control_characters' },
      });
    expect(reviewMessage(withAttributes({ quote: 'the SP0ILER is' }), s, 0, new Map())).toMatchObject({
      Attributes: { Reason: 'blocked_term' },
    });
    expect(
      reviewMessage(withAttributes({ reply_to: 'QpUjHvz7Vcc7', quote: 'café\nolé' }), s, 0, new Map()),
    ).toEqual({
      ReviewResult: 'ALLOW',
    });
  });
});

describe('the review handler falls back as the room states (functions/chat/review-message.ts)', () => {
  afterEach(() => vi.restoreAllMocks());

  it('settings that cannot be read: the fallback, not an error', async () => {
    vi.spyOn(repository, 'creatorOfRoom').mockRejectedValue(new Error('DynamoDB unavailable'));
    await expect(handler(event('anything at all', '', 'acc_t1'))).resolves.toEqual({
      ReviewResult: REVIEW_FALLBACK,
    });
  });

  it('settings that take too long: the fallback at the budget, well inside IVS 200 ms', async () => {
    // The clock is the test's: the answer comes when LOAD_BUDGET_MS have passed, not before, at any load.
    vi.useFakeTimers();
    try {
      vi.spyOn(repository, 'creatorOfRoom').mockReturnValue(new Promise(() => {}));
      let result: unknown;
      void handler({ ...event('hello'), RoomArn: `${ROOM}-slow` }).then((r) => (result = r));
      await vi.advanceTimersByTimeAsync(LOAD_BUDGET_MS - 1);
      expect(result).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1);
      expect(result).toEqual({ ReviewResult: REVIEW_FALLBACK });
      expect(LOAD_BUDGET_MS).toBeLessThan(200);
    } finally {
      vi.useRealTimers();
    }
  });

  it('cached settings are applied: a blocked term is refused with its reason', async () => {
    vi.spyOn(repository, 'creatorOfRoom').mockResolvedValue('acc_creator');
    // The creator item says whether the channel is paywalled (this one is not: none found).
    const creator = vi.spyOn(creators, 'getCreator').mockResolvedValue(undefined);
    vi.spyOn(repository, 'getBan').mockResolvedValue(undefined);
    const load = vi
      .spyOn(repository, 'getChatSettings')
      .mockResolvedValue({ ...DEFAULT_CHAT_SETTINGS, blocked_terms: ['spoiler'] });
    const room = `${ROOM}-cached`;
    expect(await handler({ ...event('the SP0ILER is'), RoomArn: room })).toEqual({
      ReviewResult: 'DENY',
      Attributes: { Reason: 'blocked_term' },
    });
    expect(await handler({ ...event('fine', '', 'acc_x'), RoomArn: room })).toEqual({
      ReviewResult: 'ALLOW',
    });
    expect(load).toHaveBeenCalledTimes(1);
    expect(creator).toHaveBeenCalledTimes(1);
  });

  it("a banned sender's message is refused, whatever token it came with (a token issued before the ban still connects); a lapsed timeout is not", async () => {
    vi.spyOn(repository, 'creatorOfRoom').mockResolvedValue('acc_creator');
    vi.spyOn(repository, 'getChatSettings').mockResolvedValue(DEFAULT_CHAT_SETTINGS);
    vi.spyOn(creators, 'getCreator').mockResolvedValue(undefined);
    const bans: Record<string, repository.ChatBan> = {
      acc_troll: {
        account_id: 'acc_troll',
        until: null,
        reason: 'spam',
        by: 'acc_creator',
        at: '2026-01-01T00:00:00.000Z',
      },
      acc_lapsed: {
        account_id: 'acc_lapsed',
        until: '2026-01-01T00:10:00.000Z',
        reason: 'x',
        by: 'acc_creator',
        at: '2026-01-01T00:00:00.000Z',
      },
    };
    const read = vi
      .spyOn(repository, 'getBan')
      .mockImplementation(async (_creator, account) => bans[account]);
    // The troll's token claims `subscriber`: the review reads the subscription (none), beside the ban.
    const subscription = vi.spyOn(entitlements, 'getEntitlement').mockResolvedValue(undefined);
    const room = `${ROOM}-bans`;
    expect(
      await handler({
        ...event('hello'),
        RoomArn: room,
        Sender: { UserId: 'acc_troll', Attributes: { badges: 'subscriber' } },
      }),
    ).toEqual({
      ReviewResult: 'DENY',
      Attributes: { Reason: 'banned' },
    });
    expect(await handler({ ...event('hello', '', 'acc_lapsed'), RoomArn: room })).toEqual({
      ReviewResult: 'ALLOW',
    });
    expect(await handler({ ...event('hello', '', 'acc_fine'), RoomArn: room })).toEqual({
      ReviewResult: 'ALLOW',
    });
    // Looked up once per sender and room within the cache's time, by the room's creator.
    expect(
      await handler({ ...event('again'), RoomArn: room, Sender: { UserId: 'acc_troll' } }),
    ).toMatchObject({
      Attributes: { Reason: 'banned' },
    });
    expect(read).toHaveBeenCalledTimes(3);
    expect(read).toHaveBeenCalledWith('acc_creator', 'acc_troll');
    expect(subscription).toHaveBeenCalledTimes(1);
    expect(subscription).toHaveBeenCalledWith('acc_troll', {
      kind: 'subscription',
      creatorId: 'acc_creator',
    });
  });

  it("a paywalled channel's chat refuses a subscriber's token once the subscription no longer grants (refunded mid-session); the creator, moderators and subscribers send", async () => {
    vi.spyOn(repository, 'creatorOfRoom').mockResolvedValue('acc_paid');
    vi.spyOn(repository, 'getChatSettings').mockResolvedValue(DEFAULT_CHAT_SETTINGS);
    vi.spyOn(repository, 'getBan').mockResolvedValue(undefined);
    vi.spyOn(repository, 'isModerator').mockImplementation(
      async (_creator, account) => account === 'acc_mod',
    );
    vi.spyOn(creators, 'getCreator').mockResolvedValue(
      paidCreator as unknown as Awaited<ReturnType<typeof creators.getCreator>>,
    );
    const granting = {
      status: 'active',
      valid_until: '2999-01-01T00:00:00.000Z',
    } as unknown as entitlements.EntitlementRecord;
    vi.spyOn(entitlements, 'getEntitlement').mockImplementation(async (account) =>
      account === 'acc_subscriber' ? granting : undefined,
    );
    const room = `${ROOM}-paid`;
    const from = (UserId: string, badges: string) =>
      handler({ ...event('hello'), RoomArn: room, Sender: { UserId, Attributes: { badges } } });
    expect(
      await Promise.all([
        from('acc_refunded', 'subscriber'),
        from('acc_subscriber', 'subscriber'),
        from('acc_mod', 'moderator'),
        from('acc_paid', 'creator'),
      ]),
    ).toEqual([
      { ReviewResult: 'DENY', Attributes: { Reason: 'subscription_required' } },
      { ReviewResult: 'ALLOW' },
      { ReviewResult: 'ALLOW' },
      { ReviewResult: 'ALLOW' },
    ]);
  });
});

const paidCreator = { id: 'acc_paid', channel: { requires_subscription: true } };
