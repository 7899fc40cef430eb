import type { CreatorRecord } from '../catalog/model.ts';

/**
 * How a channel's hot keys spread with its audience (docs/capacity.md, issue 41). DynamoDB serves
 * at most 1,000 write units and 3,000 read units a second per partition, and one item never
 * spans partitions, so a channel's counters are split over items, and how many depends on the
 * audience the channel is known to draw: its **audience scale**, the larger of the count the
 * audience publisher last wrote (`watching_now`) and the channel's recorded peak
 * (`peak_all_time`, raised by the same publisher and never lowered). Writers (the watch open, the
 * heartbeat that counts a viewer, a live reaction) and readers (the viewer counts, the tick's
 * reaction totals, the publisher) all read the creator item anyway and derive the same spread
 * from it; since the scale only grows, a reader whose creator item is no older than the writes it
 * sums reads every item a writer used (and a few empty ones, at half a read unit each).
 *
 * The rules are pure: `test/live/audience-scale.test.ts` holds them to the limits.
 */

/** The largest audience the channel is known to draw: what its counters must be spread for. */
export const audienceScaleOf = (creator: Pick<CreatorRecord, 'watching_now' | 'peak_all_time'>): number =>
  Math.max(creator.watching_now ?? 0, creator.peak_all_time ?? 0);

/** Writes a second one counter item is planned to take: a quarter of DynamoDB's 1,000 per partition. */
export const SHARD_WRITES_PER_SECOND = 250;

/** The smallest power of two at or above `n` (1 for n ≤ 1). */
const powerOfTwoAtLeast = (n: number) => 2 ** Math.max(0, Math.ceil(Math.log2(Math.max(1, n))));

/** Viewer-counter shards of a small channel (all that existed before issue 41). */
export const MIN_VIEWER_SHARDS = 16;
/** At most this many viewer-counter shards (a read of a channel's counts is 2 × this + 2 keys). */
export const MAX_VIEWER_SHARDS = 1024;

/**
 * Viewer-counter shards for a channel of audience scale `scale`. Every session's first heartbeat
 * of a 3-minute bucket comes within the bucket's first heartbeat interval (30 s), so a bucket's
 * counter writes arrive at `scale / 30` a second; the shards hold that to
 * SHARD_WRITES_PER_SECOND each (a power of two: 16 up to 120,000 viewers, 256 at 1 million, 1,024
 * above 3.84 million), which leaves the audience room to grow 4× between two publications of its
 * count before a shard nears 1,000 writes a second.
 */
export const viewerShardsFor = (scale: number, heartbeatSeconds = 30): number =>
  Math.min(
    MAX_VIEWER_SHARDS,
    Math.max(MIN_VIEWER_SHARDS, powerOfTwoAtLeast(scale / heartbeatSeconds / SHARD_WRITES_PER_SECOND)),
  );

/** Reaction-counter shards of a small channel (all that existed before issue 41). */
export const MIN_REACTION_SHARDS = 10;
/** At most this many reaction shards (the tick reads them all once per tick). */
export const MAX_REACTION_SHARDS = 4096;
/**
 * Reactions a viewer is planned to send a second at a burst (a goal, a drop): one every 10 s.
 * The per-account limit (600 a minute) allows 100 times that; the plan is the crowd's, not one
 * account's.
 */
export const REACTIONS_PER_VIEWER_SECOND = 0.1;

/**
 * Reaction-counter shards for a channel of audience scale `scale`: its burst,
 * `scale × REACTIONS_PER_VIEWER_SECOND` a second, at SHARD_WRITES_PER_SECOND per shard (10 up to
 * 25,000 viewers, then a power of two: 512 at 1 million, 4,096 above 5.12 million).
 */
export const reactionShardsFor = (scale: number): number => {
  const needed = (scale * REACTIONS_PER_VIEWER_SECOND) / SHARD_WRITES_PER_SECOND;
  if (needed <= MIN_REACTION_SHARDS) return MIN_REACTION_SHARDS;
  return Math.min(MAX_REACTION_SHARDS, powerOfTwoAtLeast(needed));
};

/** From this many viewers (`watching_now`) a container reuses a channel's creator item on the live paths. */
export const CREATOR_REUSE_FROM_VIEWERS = 50_000;
/** How long it reuses it then. */
export const CREATOR_REUSE_MS = 5_000;

/**
 * How long a container may answer heartbeats and reactions of a channel from the creator item it
 * already read: 0 (read it every time) below CREATOR_REUSE_FROM_VIEWERS viewers, 5 s from there.
 * Every heartbeat reads the creator item (its live state, IVS channel and published count), so
 * without reuse 1 million viewers read that one item 33,333 times a second (16,667 read units:
 * over five times a partition's 3,000); with it, reads follow warm containers (each at most one
 * read per 5 s). What the reuse delays by up to 5 s (a stream's end, its health, the published
 * count) the pushed live state and the published count already show that late.
 */
export const creatorReuseMs = (creator: Pick<CreatorRecord, 'watching_now'>): number =>
  (creator.watching_now ?? 0) >= CREATOR_REUSE_FROM_VIEWERS ? CREATOR_REUSE_MS : 0;

/** The viewer-counter shards of `creator`'s channel. */
export const viewerShardsOf = (creator: Pick<CreatorRecord, 'watching_now' | 'peak_all_time'>): number =>
  viewerShardsFor(audienceScaleOf(creator));

/** The reaction-counter shards of `creator`'s channel. */
export const reactionShardsOf = (creator: Pick<CreatorRecord, 'watching_now' | 'peak_all_time'>): number =>
  reactionShardsFor(audienceScaleOf(creator));
