import { randomInt } from 'node:crypto';
import { UpdateCommand } from '../db/document.ts';
import { DEVICE_TYPES, type DeviceType } from '../catalog/model.ts';
import { perContainer } from '../aws/local-hook.ts';
import { batchGet, primaryKeyOf as keyOf } from '../db/batch.ts';
import { db } from '../db/client.ts';
import { tableName } from '../db/table.ts';
import { isConditionalCheckFailed } from '../db/transaction.ts';
import { MIN_VIEWER_SHARDS } from './audience-scale.ts';

/**
 * Concurrent viewers, counted from heartbeats (see docs/live.md):
 * every watch session writes once per 3-minute bucket (on open, or its first heartbeat in the
 * bucket, the one that renews its lease: shared/audience/session-repository.ts) to one of the
 * channel's counter items, PK `VIEWERS#<channel>#<bucket>#<shard>`, SK `COUNT`, adding 1 to
 * `total` and to its device. watching_now = the sum over the shards of the last complete bucket.
 * Those writes come in the first 30 s of a bucket (every session's first beat in it), so the
 * number of shards follows the channel's audience scale (`viewerShardsFor`,
 * shared/audience/audience-scale.ts: 16 up to 120,000 viewers, 256 at 1 million): at most ~250
 * writes/s per item for 30 s, none for the other 150 s (DynamoDB's per-partition ceiling is
 * 1,000). Writers and readers pass the same `shards`, derived from the creator item. Items expire
 * by TTL.
 * A container reads a channel's shards and peaks in one BatchGetItem and reuses it for up to
 * CACHE_MS, so the peak items (`VIEWERS#<channel>#PEAK`, `DAY#<date>` / `ALL`) are written only
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
export const viewerCounterKey = (channelId: string, bucket: number, shard: number) => ({
  PK: `VIEWERS#${channelId}#${bucket}#${shard}`,
  SK: 'COUNT',
});

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
  await db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: viewerCounterKey(channelId, bucket, shard),
      UpdateExpression: 'ADD #total :one, #device :one SET expires_at_epoch = :expires',
      ExpressionAttributeNames: { '#total': 'total', '#device': device },
      ExpressionAttributeValues: { ':one': by, ':expires': (bucket + 4) * BUCKET_SECONDS + 86_400 },
    }),
  );
};

export interface ViewerCount {
  total: number;
  byDevice: Record<DeviceType, number>;
}

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

const peakKey = (channelId: string, sk: string) => ({ PK: `VIEWERS#${channelId}#PEAK`, SK: sk });

/** One BatchGetItem per 100 keys: the `shards` of the current bucket and the one before it, and both peaks (34 keys for 16 shards). */
const readAudience = async (
  channelId: string,
  now: Date,
  shards: number,
  known?: Audience,
): Promise<Audience> => {
  const bucket = bucketOf(now);
  const day = now.toISOString().slice(0, 10);
  const shardKeys = (b: number) =>
    Array.from({ length: shards }, (_, shard) => viewerCounterKey(channelId, b, shard));
  const keys = [
    ...[bucket, bucket - 1].flatMap(shardKeys),
    peakKey(channelId, `DAY#${day}`),
    peakKey(channelId, 'ALL'),
  ];
  const items = new Map((await batchGet(keys, keyOf)).map((item) => [keyOf(item), item]));
  const sum = (b: number): ViewerCount => {
    const byDevice = Object.fromEntries(DEVICE_TYPES.map((d) => [d, 0])) as Record<DeviceType, number>;
    let total = 0;
    for (const key of shardKeys(b)) {
      const item = items.get(keyOf(key));
      total += Number(item?.total ?? 0);
      for (const d of DEVICE_TYPES) byDevice[d] += Number(item?.[d] ?? 0);
    }
    return { total, byDevice };
  };
  const peak = (sk: string) => Number(items.get(keyOf(peakKey(channelId, sk)))?.peak ?? 0);
  // The read is eventually consistent: never forget a peak this container already knew.
  return {
    at: now.getTime(),
    shards,
    bucket,
    day,
    counts: [sum(bucket), sum(bucket - 1)],
    peakToday: Math.max(peak(`DAY#${day}`), known?.day === day ? known.peakToday : 0),
    peakAllTime: Math.max(peak('ALL'), known?.peakAllTime ?? 0),
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

/** Sets a peak item to `value` if higher; returns the stored peak (ALL_OLD when the check fails). */
const writePeak = async (channelId: string, sk: string, value: number): Promise<number> => {
  try {
    await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: peakKey(channelId, sk),
        UpdateExpression: 'SET peak = :v',
        ConditionExpression: 'attribute_not_exists(peak) OR peak < :v',
        ExpressionAttributeValues: { ':v': value },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return value;
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error;
    // The document client leaves this item marshalled (aws/aws-sdk-js-v3#6723).
    const old = (error as { Item?: { peak?: { N?: string } } }).Item?.peak?.N;
    return Math.max(value, Number(old ?? value));
  }
};

/**
 * Raises the channel's peaks for the day and all time to `value`, writing a peak item only when
 * `value` is above the peak this container knows for it (read with the counts, or learned from
 * its last write). Returns the peaks, never below `value`.
 */
export const recordPeak = async (channelId: string, value: number, now: Date, shards = VIEWER_SHARDS) => {
  const known = await audienceOf(channelId, now, shards);
  const [today, allTime] = await Promise.all([
    value > known.peakToday ? writePeak(channelId, `DAY#${known.day}`, value) : known.peakToday,
    value > known.peakAllTime ? writePeak(channelId, 'ALL', value) : known.peakAllTime,
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
