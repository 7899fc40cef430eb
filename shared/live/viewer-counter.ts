import { randomInt } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { DEVICE_TYPES, type DeviceType } from '../catalog/model.ts';
import { batchGet } from '../db/batch.ts';
import { db } from '../db/client.ts';
import { tableName } from '../db/table.ts';

/**
 * Concurrent viewers, counted from heartbeats (see docs/live.md):
 * every watch session writes once per 30-second bucket (on open and on each heartbeat) to one of
 * VIEWER_SHARDS counter items, PK `VIEWERS#<channel>#<bucket>#<shard>`, SK `COUNT`, adding 1 to
 * `total` and to its device. watching_now = the sum over the shards of the last complete bucket:
 * one BatchGetItem of known keys. 100,000 viewers × 1 write / 30 s = 3,333 writes/s spread over
 * 16 shards ≈ 208 writes/s per item (DynamoDB's per-item ceiling is ~1,000). Items expire by TTL.
 */
export const BUCKET_SECONDS = 30;
export const VIEWER_SHARDS = 16;

export const bucketOf = (at: Date) => Math.floor(at.getTime() / 1000 / BUCKET_SECONDS);
export const viewerCounterKey = (channelId: string, bucket: number, shard: number) => ({
  PK: `VIEWERS#${channelId}#${bucket}#${shard}`,
  SK: 'COUNT',
});

/** Counts one viewer's presence in the current bucket (a random shard). */
export const countPresence = async (
  channelId: string,
  device: DeviceType,
  at: Date,
  shard = randomInt(VIEWER_SHARDS),
) => {
  const bucket = bucketOf(at);
  await db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: viewerCounterKey(channelId, bucket, shard),
      UpdateExpression: 'ADD #total :one, #device :one SET expires_at_epoch = :expires',
      ExpressionAttributeNames: { '#total': 'total', '#device': device },
      ExpressionAttributeValues: { ':one': 1, ':expires': (bucket + 4) * BUCKET_SECONDS + 86_400 },
    }),
  );
};

export interface ViewerCount {
  total: number;
  byDevice: Record<DeviceType, number>;
}

const cache = new Map<string, { at: number; value: ViewerCount }>();
/** How long a container reuses a count it read (viewer counts are not worth a read per request). */
const CACHE_MS = 5_000;

/** Viewers in a bucket: the sum over its shards (one BatchGetItem). */
export const readBucket = async (channelId: string, bucket: number): Promise<ViewerCount> => {
  const key = `${channelId}#${bucket}`;
  const hit = cache.get(key);
  if (hit && Date.now() - hit.at < CACHE_MS) return hit.value;
  const items = await batchGet(
    Array.from({ length: VIEWER_SHARDS }, (_, shard) => viewerCounterKey(channelId, bucket, shard)),
    (item) => String(item.PK),
  );
  const byDevice = Object.fromEntries(DEVICE_TYPES.map((d) => [d, 0])) as Record<DeviceType, number>;
  let total = 0;
  for (const item of items) {
    total += Number(item.total ?? 0);
    for (const d of DEVICE_TYPES) byDevice[d] += Number(item[d] ?? 0);
  }
  const value = { total, byDevice };
  cache.set(key, { at: Date.now(), value });
  return value;
};

/**
 * Viewers now: the last complete bucket (every active session has written to it once), or the
 * current one when that is larger (sessions opened since). Also the bucket before, for `delta`.
 */
export const currentViewers = async (channelId: string, now: Date) => {
  const bucket = bucketOf(now);
  const [current, previous, before] = await Promise.all([
    readBucket(channelId, bucket),
    readBucket(channelId, bucket - 1),
    readBucket(channelId, bucket - 2),
  ]);
  const latest = current.total > previous.total ? current : previous;
  return { now: latest, previous: current.total > previous.total ? previous : before };
};

/** Raises the channel's peak for the day (and all time) if `value` is higher. Conditional, cheap. */
export const recordPeak = async (
  channelId: string,
  value: number,
  now: Date,
): Promise<{ today: number; allTime: number }> => {
  const day = now.toISOString().slice(0, 10);
  const raise = async (sk: string) => {
    try {
      const result = await db.send(
        new UpdateCommand({
          TableName: tableName(),
          Key: { PK: `VIEWERS#${channelId}#PEAK`, SK: sk },
          UpdateExpression: 'SET peak = :v',
          ConditionExpression: 'attribute_not_exists(peak) OR peak < :v',
          ExpressionAttributeValues: { ':v': value },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return Number(result.Attributes?.peak ?? value);
    } catch (error) {
      if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
      const items = await batchGet([{ PK: `VIEWERS#${channelId}#PEAK`, SK: sk }], (item) => String(item.SK));
      return Number(items[0]?.peak ?? value);
    }
  };
  const [today, allTime] = await Promise.all([raise(`DAY#${day}`), raise('ALL')]);
  return { today, allTime };
};
