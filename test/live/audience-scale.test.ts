import { describe, expect, it } from 'vitest';
import {
  audienceScaleOf,
  CREATOR_REUSE_MS,
  creatorReuseMs,
  MAX_REACTION_SHARDS,
  MAX_VIEWER_SHARDS,
  REACTIONS_PER_VIEWER_SECOND,
  reactionShardsFor,
  SHARD_WRITES_PER_SECOND,
  viewerShardsFor,
} from '../../shared/audience/audience-scale.ts';

/** DynamoDB's write ceiling per partition (one item never spans partitions). */
const PARTITION_WCU = 1_000;
const HEARTBEAT_SECONDS = 30;
/** A bucket's counter writes arrive within one heartbeat interval: every session's first beat in it. */
const viewerWritesPerShard = (viewers: number) => viewers / HEARTBEAT_SECONDS / viewerShardsFor(viewers);
const reactionWritesPerShard = (viewers: number) =>
  (viewers * REACTIONS_PER_VIEWER_SECOND) / reactionShardsFor(viewers);

describe('counter shards follow the audience (issue 41)', () => {
  it('keep a small channel on the 16 viewer shards and 10 reaction shards it always had', () => {
    for (const viewers of [0, 1, 500, 25_000]) {
      expect(viewerShardsFor(viewers)).toBe(16);
      expect(reactionShardsFor(viewers)).toBe(10);
    }
    expect(viewerShardsFor(120_000)).toBe(16);
    expect(viewerShardsFor(120_001)).toBe(32);
  });

  it('hold one channel of 1 million viewers under the partition limit, which 16 shards were not', () => {
    // Before: 1,000,000 / 30 / 16 = 2,083 counter writes a second on each shard.
    expect(1_000_000 / HEARTBEAT_SECONDS / 16).toBeGreaterThan(PARTITION_WCU);
    expect(viewerShardsFor(1_000_000)).toBe(256);
    expect(viewerWritesPerShard(1_000_000)).toBeCloseTo(130.2, 1);
    // Reactions at a burst: 100,000 a second over 10 shards was 10,000 each.
    expect(reactionShardsFor(1_000_000)).toBe(512);
    expect(reactionWritesPerShard(1_000_000)).toBeCloseTo(195.3, 1);
  });

  it('plan each shard at 250 writes a second up to the caps, and under 1,000 at 10 million', () => {
    for (let viewers = 1_000; viewers <= 10_000_000; viewers = Math.round(viewers * 1.37)) {
      const shards = viewerShardsFor(viewers);
      expect(Number.isInteger(Math.log2(shards))).toBe(true);
      if (shards < MAX_VIEWER_SHARDS)
        expect(viewerWritesPerShard(viewers)).toBeLessThanOrEqual(SHARD_WRITES_PER_SECOND);
      expect(viewerWritesPerShard(viewers)).toBeLessThan(PARTITION_WCU);
      if (reactionShardsFor(viewers) < MAX_REACTION_SHARDS)
        expect(reactionWritesPerShard(viewers)).toBeLessThanOrEqual(SHARD_WRITES_PER_SECOND);
      expect(reactionWritesPerShard(viewers)).toBeLessThan(PARTITION_WCU);
    }
    expect(viewerShardsFor(10_000_000)).toBe(MAX_VIEWER_SHARDS);
    expect(viewerWritesPerShard(10_000_000)).toBeCloseTo(325.5, 1);
  });

  it('never shrinks for a reader whose creator item is newer than the writer’s', () => {
    // The scale is max(watching_now, peak_all_time) and the publisher raises the peak first, so a
    // later creator item never gives fewer shards than an earlier one while the audience falls.
    const rising = { watching_now: 2_000_000, peak_all_time: 2_000_000 };
    const fallen = { watching_now: 40_000, peak_all_time: 2_000_000 };
    expect(audienceScaleOf(fallen)).toBe(2_000_000);
    expect(viewerShardsFor(audienceScaleOf(fallen))).toBe(viewerShardsFor(audienceScaleOf(rising)));
  });

  it('reuse the creator item on the live paths only from 50,000 viewers', () => {
    expect(creatorReuseMs({ watching_now: 49_999 })).toBe(0);
    expect(creatorReuseMs({ watching_now: 50_000 })).toBe(CREATOR_REUSE_MS);
    // A heartbeat reads the creator item: 1 million viewers read it 33,333 times a second
    // without reuse (16,667 read units at 0.5 each, over a partition's 3,000).
    expect((1_000_000 / HEARTBEAT_SECONDS) * 0.5).toBeGreaterThan(3_000);
  });
});
