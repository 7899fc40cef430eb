import { describe, expect, it } from 'vitest';
import { REFRESH_TICKS, TickAggregator } from '../../shared/realtime/aggregator.ts';
import { REACTION_TOTALS_LISTED } from '../../shared/realtime/messages.ts';
import { reactionsOf } from '../../shared/realtime/tick.ts';

describe('the tick aggregator', () => {
  it('lets through at most one message per kind per channel per tick, and only what changed', () => {
    const aggregator = new TickAggregator();
    const at = new Date('2026-11-29T08:00:00Z');
    aggregator.offer('/live/cr-1', 'audience', { watching_now: 1 }, { creatorId: 'cr_1' });
    aggregator.offer('/live/cr-1', 'audience', { watching_now: 2 }, { creatorId: 'cr_1' });
    aggregator.offer('/live/cr-1', 'state', { is_live: true }, { creatorId: 'cr_1' });
    const first = aggregator.flush(1, at);
    expect(first.get('/live/cr-1')).toEqual([
      {
        v: 1,
        kind: 'audience',
        creator_id: 'cr_1',
        tick: 1,
        at: at.toISOString(),
        data: { watching_now: 2 },
      },
      { v: 1, kind: 'state', creator_id: 'cr_1', tick: 1, at: at.toISOString(), data: { is_live: true } },
    ]);
    // The same snapshots again: nothing to say.
    aggregator.offer('/live/cr-1', 'audience', { watching_now: 2 });
    aggregator.offer('/live/cr-1', 'state', { is_live: true });
    expect(aggregator.flush(2, at).size).toBe(0);
    // One kind changed: one message.
    aggregator.offer('/live/cr-1', 'audience', { watching_now: 3 });
    aggregator.offer('/live/cr-1', 'state', { is_live: true });
    expect(
      aggregator
        .flush(3, at)
        .get('/live/cr-1')
        ?.map((m) => m.kind),
    ).toEqual(['audience']);
    // Forgotten: the next snapshot is published in full again.
    // Unchanged for REFRESH_TICKS ticks: published again, for subscribers who joined since.
    aggregator.offer('/live/cr-1', 'state', { is_live: true });
    expect(aggregator.flush(1 + REFRESH_TICKS - 1, at).size).toBe(0);
    aggregator.offer('/live/cr-1', 'state', { is_live: true });
    expect(
      aggregator
        .flush(1 + REFRESH_TICKS, at)
        .get('/live/cr-1')
        ?.map((m) => m.kind),
    ).toEqual(['state']);
    aggregator.forget('/live/cr-1');
    aggregator.offer('/live/cr-1', 'state', { is_live: true });
    expect(aggregator.flush(1 + REFRESH_TICKS + 1, at).get('/live/cr-1')).toHaveLength(1);
  });

  it('turns 10,000 reactions a second into one reactions message per tick', () => {
    const aggregator = new TickAggregator();
    let messages = 0;
    for (let tick = 0; tick < 12; tick++) {
      // 5 s of 10,000 reactions a second, counted (as the counters do) into the tick's totals.
      const totals = new Map<string, number>();
      for (let i = 0; i < 50_000; i++) {
        const emoji = ['🔥', '❤️', '😂'][i % 3]!;
        totals.set(emoji, (totals.get(emoji) ?? 0) + 1);
      }
      aggregator.offer('/live/cr-1', 'reactions', Object.fromEntries(totals), { fingerprint: String(tick) });
      messages += [...aggregator.flush(tick, new Date()).values()].flat().length;
    }
    expect(messages).toBe(12);
  });
});

describe('the reactions message (shared/realtime/tick.ts)', () => {
  it("lists the most used emoji, at most REACTION_TOTALS_LISTED, and fits AppSync's 240 KB event however many distinct ones a tick had (was every one: over the limit, the publish failed)", () => {
    // Any emoji sequence is a reaction: 10,000 distinct ZWJ sequences in one tick (64 UTF-16 units each).
    const counts = new Map<string, number>();
    for (let i = 0; i < 10_000; i++)
      counts.set(`🔥\u200D${String.fromCodePoint(0x1f600 + (i % 80))}`.repeat(6) + i, 1);
    counts.set('👏', 500);
    counts.set('🎉', 20);
    const data = reactionsOf(counts);
    expect(data.totals).toHaveLength(REACTION_TOTALS_LISTED);
    expect(data.totals.slice(0, 2)).toEqual([
      { emoji: '👏', count: 500 },
      { emoji: '🎉', count: 20 },
    ]);
    expect(data.total).toBe(10_520);
    const event = JSON.stringify({ v: 1, kind: 'reactions', creator_id: 'cr_0001', tick: 1, at: '', data });
    expect(Buffer.byteLength(event)).toBeLessThan(240 * 1024);
    expect(reactionsOf(new Map([['🔥', 3]]))).toEqual({
      tick_seconds: 5,
      totals: [{ emoji: '🔥', count: 3 }],
      total: 3,
    });
  });
});
