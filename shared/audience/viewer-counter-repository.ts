import { DEVICE_TYPES, type DeviceType } from '../catalog/model.ts';
import { batchGet } from '../db/batch.ts';
import { db } from '../db/client.ts';
import { GetCommand, UpdateCommand } from '../db/document.ts';
import { keyString } from '../db/key.ts';
import { TABLE, tableName } from '../db/table.ts';
import { writeIf } from '../db/transaction.ts';
import { updateOf, withCondition } from '../db/update.ts';

/**
 * Viewer counters and peaks: key design and access patterns (the counting rule, buckets, shards
 * and caching are shared/audience/viewer-counter.ts).
 * - counter: PK `VIEWERS#<channel>#<bucket>#<shard>`, SK `COUNT` → `total` and one count per
 *   device type (each an atomic ADD); expires by TTL.
 * - peak:    PK `VIEWERS#<channel>#PEAK`, SK `DAY#<YYYY-MM-DD>` (the day's) or `ALL` → `peak`,
 *   only ever raised.
 * Channel ids hold no '#'.
 */

/** The viewers of a channel in a bucket: the total and per device type. */
export interface ViewerCount {
  total: number;
  byDevice: Record<DeviceType, number>;
}

/** Which peak of a channel: a day's (`YYYY-MM-DD`, UTC) or all time's. */
export type PeakOf = { day: string } | 'all';

/** The key of one counter shard of a channel's bucket. */
export const viewerCounterKey = (channelId: string, bucket: number, shard: number) => ({
  PK: `VIEWERS#${channelId}#${bucket}#${shard}`,
  SK: 'COUNT',
});

/** The key of one of a channel's peaks. */
export const viewerPeakKey = (channelId: string, peak: PeakOf) => ({
  PK: `VIEWERS#${channelId}#PEAK`,
  SK: peak === 'all' ? 'ALL' : `DAY#${peak.day}`,
});

/** The channel id of a counter item (`VIEWERS#<channel>#<bucket>#<shard>`). */
const channelOf = (item: Record<string, unknown>) => String(item.PK).split('#')[1] ?? '';

/**
 * Adds `by` viewers (negative to take back) of `device` to one shard of a channel's bucket: one
 * UpdateItem, creating the shard, which expires at `expiresAt` (epoch seconds).
 */
export const addViewers = async (
  channelId: string,
  at: { bucket: number; shard: number; device: DeviceType; by: number; expiresAt: number },
): Promise<void> => {
  await db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: viewerCounterKey(channelId, at.bucket, at.shard),
      ...updateOf({
        add: { total: at.by, [at.device]: at.by },
        set: { [TABLE.ttlAttribute]: at.expiresAt },
      }),
    }),
  );
};

const countOf = (
  items: ReadonlyMap<string, Record<string, unknown>>,
  keys: Array<{ PK: string; SK: string }>,
) => {
  const byDevice = Object.fromEntries(DEVICE_TYPES.map((d) => [d, 0])) as Record<DeviceType, number>;
  let total = 0;
  for (const key of keys) {
    const item = items.get(keyString(key));
    total += Number(item?.total ?? 0);
    for (const d of DEVICE_TYPES) byDevice[d] += Number(item?.[d] ?? 0);
  }
  return { total, byDevice };
};

/**
 * A channel's counts in each of `buckets` over its `shards`, and its peaks of `day` and all time
 * (0 where none): one BatchGetItem per 100 keys (34 keys for two buckets of 16 shards),
 * eventually consistent.
 */
export const readChannelCounters = async (
  channelId: string,
  options: { buckets: readonly number[]; shards: number; day: string },
): Promise<{ counts: ViewerCount[]; peakOfDay: number; peakAllTime: number }> => {
  const shardKeys = (bucket: number) =>
    Array.from({ length: options.shards }, (_, shard) => viewerCounterKey(channelId, bucket, shard));
  const day = viewerPeakKey(channelId, { day: options.day });
  const all = viewerPeakKey(channelId, 'all');
  const keys = [...options.buckets.flatMap(shardKeys), day, all];
  const items = new Map((await batchGet(keys)).map((item) => [keyString(item), item]));
  const peak = (key: { PK: string; SK: string }) => Number(items.get(keyString(key))?.peak ?? 0);
  return {
    counts: options.buckets.map((bucket) => countOf(items, shardKeys(bucket))),
    peakOfDay: peak(day),
    peakAllTime: peak(all),
  };
};

/** Total viewers per channel in `bucket`, each over its `shards`: one BatchGetItem per 100 counter items. */
export const bucketTotals = async (
  channels: ReadonlyArray<{ channelId: string; shards: number }>,
  bucket: number,
): Promise<Map<string, number>> => {
  const keys = channels.flatMap(({ channelId, shards }) =>
    Array.from({ length: shards }, (_, shard) => viewerCounterKey(channelId, bucket, shard)),
  );
  const totals = new Map(channels.map(({ channelId }) => [channelId, 0]));
  for (const item of await batchGet(keys)) {
    const channel = channelOf(item);
    totals.set(channel, (totals.get(channel) ?? 0) + Number(item.total ?? 0));
  }
  return totals;
};

/**
 * Raises a channel's peak to `value` if it is higher; the peak stored after: `value`, or the
 * higher one found (learned from the refused write itself, ALL_OLD: no read).
 */
export const raisePeak = async (channelId: string, peak: PeakOf, value: number): Promise<number> => {
  const outcome = await writeIf({
    Update: {
      Key: viewerPeakKey(channelId, peak),
      ...withCondition(updateOf({ set: { peak: value } }), {
        expression: 'attribute_not_exists(peak) OR peak < :c0',
        values: { ':c0': value },
      }),
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  });
  return outcome.written ? value : Math.max(value, Number(outcome.item?.peak ?? value));
};

/** A channel's stored peak, read consistently (0 when none). */
export const getPeak = async (channelId: string, peak: PeakOf): Promise<number> => {
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName(), Key: viewerPeakKey(channelId, peak), ConsistentRead: true }),
  );
  return Number(Item?.peak ?? 0);
};
