import { randomInt } from 'node:crypto';
import type { DeviceType } from '../catalog/model.ts';
import { perContainer } from '../aws/local-hook.ts';
import { MIN_VIEWER_SHARDS } from './audience-scale.ts';
import { addViewers, raisePeak, readChannelCounters, type ViewerCount } from './viewer-counter-repository.ts';

export type { ViewerCount };

/**
 * Concurrent viewers, counted from heartbeats (see docs/live.md):
 * every watch session writes once per 3-minute bucket (on open, or its first heartbeat in the
 * bucket, the one that renews its lease: shared/audience/session-repository.ts) to one of the
 * channel's counter shards (shared/audience/viewer-counter-repository.ts), adding 1 to `total`
 * and to its device. watching_now = the sum over the shards of the last complete bucket.
 * Those writes come in the first 30 s of a bucket (every session's first beat in it), so the
 * number of shards follows the channel's audience scale (`viewerShardsFor`,
 * shared/audience/audience-scale.ts: 16 up to 120,000 viewers, 256 at 1 million): at most ~250
 * writes/s per item for 30 s, none for the other 150 s (DynamoDB's per-partition ceiling is
 * 1,000). Writers and readers pass the same `shards`, derived from the creator item. Items expire
 * by TTL.
 * A container reads a channel's shards and peaks in one BatchGetItem and reuses it for up to
 * CACHE_MS, so the peak items (the day's and all time's) are written only
 * when a container sees a count above the peak it knows: their writes follow warm containers,
 * not viewers.
 */
export const BUCKET_SECONDS = 180;
/** Shards of a channel whose audience scale is unknown to the caller: the fewest there are. */
export const VIEWER_SHARDS = MIN_VIEWER_SHARDS;

export const bucketOf = (at: Date) => Math.floor(at.getTime() / 1000 / BUCKET_SECONDS);
/** When `bucket` starts (epoch seconds). */
export const bucketStartSeconds = (bucket: number) => bucket * BUCKET_SECONDS;
/** When `bucket` ends (epoch ms). */
export const bucketEndMs = (bucket: number) => (bucket + 1) * BUCKET_SECONDS * 1000;

/**
 * Counts one viewer's presence in the current bucket (a random one of the channel's `shards`), or
 * with `by: -1` takes back a count made ahead of a claim that then failed (a heartbeat counts
 * alongside its claim: one round trip, issue 41).
 */
export const countPresence = async (
  channelId: string,
  device: DeviceType,
  at: Date,
  shards = VIEWER_SHARDS,
  shard = randomInt(shards),
  by: 1 | -1 = 1,
) => {
  const bucket = bucketOf(at);
  await addViewers(channelId, {
    bucket,
    shard,
    device,
    by,
    expiresAt: (bucket + 4) * BUCKET_SECONDS + 86_400,
  });
};

/** What a container knows of a channel: two buckets' counts over `shards` and the peaks, as of `at`. */
interface Audience {
  at: number;
  shards: number;
  bucket: number;
  day: string;
  counts: [current: ViewerCount, previous: ViewerCount];
  peakToday: number;
  peakAllTime: number;
}

/** How long a container reuses what it read of a channel (viewer counts are not worth a read per request). */
const CACHE_MS = 5_000;
/** What this container read of each channel (one map per container: see perContainer). */
const audiencesOf = /* @__PURE__ */ perContainer(() => new Map<string, Audience>());

/** One read of the channel's counters: the `shards` of the current bucket and the one before it, and both peaks. */
const readAudience = async (
  channelId: string,
  now: Date,
  shards: number,
  known?: Audience,
): Promise<Audience> => {
  const bucket = bucketOf(now);
  const day = now.toISOString().slice(0, 10);
  const read = await readChannelCounters(channelId, { buckets: [bucket, bucket - 1], shards, day });
  // The read is eventually consistent: never forget a peak this container already knew.
  return {
    at: now.getTime(),
    shards,
    bucket,
    day,
    counts: [read.counts[0]!, read.counts[1]!],
    peakToday: Math.max(read.peakOfDay, known?.day === day ? known.peakToday : 0),
    peakAllTime: Math.max(read.peakAllTime, known?.peakAllTime ?? 0),
  };
};

/** What this container knows of the channel, if read over at least `shards` less than `maxAgeMs` ago in this bucket. */
const freshAudience = (
  channelId: string,
  now: Date,
  shards: number,
  maxAgeMs = CACHE_MS,
): Audience | undefined => {
  const known = audiencesOf().get(channelId);
  return known &&
    known.shards >= shards &&
    known.bucket === bucketOf(now) &&
    now.getTime() - known.at < maxAgeMs
    ? known
    : undefined;
};

/** The channel as this container knows it: read again after `maxAgeMs`, when a bucket closes or over more shards. */
const audienceOf = async (
  channelId: string,
  now: Date,
  shards: number,
  maxAgeMs = CACHE_MS,
): Promise<Audience> => {
  const fresh = freshAudience(channelId, now, shards, maxAgeMs);
  if (fresh) return fresh;
  const audience = await readAudience(channelId, now, shards, audiencesOf().get(channelId));
  audiencesOf().set(channelId, audience);
  return audience;
};

/**
 * Reads the channel's audience ahead, as `audienceOf` would, but keeps it only when `keep` is
 * called: a request reads it alongside the reads that check the channel id it was given (issue
 * 41), and keeps it once that id proved to be the creator's, so no id a caller makes up stays in
 * the container's memory. The channel's shards are not known before its creator item is read: the
 * read ahead takes as many as this container last read of it (else the fewest); a read over fewer
 * shards than the creator item gives is not fresh for `channelAudience`, which reads the channel
 * again (one round trip later, once per container as a channel's audience scale grows).
 * `keep(device)`: with the viewer this request counts in the current bucket (the read came before
 * that count), so the audience answered includes it, as when the audience was read after the count.
 */
export const readAudienceAhead = async (
  channelId: string,
  now: Date,
): Promise<{ keep: (counted?: DeviceType) => void }> => {
  const known = audiencesOf().get(channelId);
  const guess = known?.shards ?? VIEWER_SHARDS;
  if (freshAudience(channelId, now, guess)) return { keep: () => {} };
  const audience = await readAudience(channelId, now, guess, known);
  return {
    keep: (counted) => {
      if (counted) {
        audience.counts[0].total += 1;
        audience.counts[0].byDevice[counted] += 1;
      }
      audiencesOf().set(channelId, audience);
    },
  };
};

/**
 * Raises the channel's peaks for the day and all time to `value`, writing a peak item only when
 * `value` is above the peak this container knows for it (read with the counts, or learned from
 * its last write). Returns the peaks, never below `value`.
 */
export const recordPeak = async (channelId: string, value: number, now: Date, shards = VIEWER_SHARDS) => {
  const known = await audienceOf(channelId, now, shards);
  const [today, allTime] = await Promise.all([
    value > known.peakToday ? raisePeak(channelId, { day: known.day }, value) : known.peakToday,
    value > known.peakAllTime ? raisePeak(channelId, 'all', value) : known.peakAllTime,
  ]);
  known.peakToday = Math.max(known.peakToday, today);
  known.peakAllTime = Math.max(known.peakAllTime, allTime, known.peakToday);
  return { today: known.peakToday, allTime: known.peakAllTime };
};

/**
 * A channel's audience as a request shows it: viewers now (the last complete bucket, or the
 * current one when larger, i.e. sessions opened since) and the peaks, raised to viewers now when
 * needed. `shards`: the channel's (`viewerShardsFor` of its audience scale); `maxAgeMs`: how old a
 * container's read may be (default the 5-second cache; 0 reads afresh, as the realtime tick does
 * once per tick).
 */
export const channelAudience = async (
  channelId: string,
  now: Date,
  { shards = VIEWER_SHARDS, maxAgeMs = CACHE_MS }: { shards?: number; maxAgeMs?: number } = {},
) => {
  const [current, previous] = (await audienceOf(channelId, now, shards, maxAgeMs)).counts;
  const latest = current.total > previous.total ? current : previous;
  const peaks = await recordPeak(channelId, latest.total, now, shards);
  return { current: latest, peaks };
};
