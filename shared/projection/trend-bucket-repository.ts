import { clock } from '../clock.ts';
import { db } from '../db/client.ts';
import { UpdateCommand } from '../db/document.ts';
import { queryAll } from '../db/query.ts';
import { TABLE, tableName } from '../db/table.ts';
import type { TransactOperation } from '../db/transaction.ts';
import { updateOf } from '../db/update.ts';

/**
 * Trend buckets (the 7-day windows, shared/projection/counters.ts and windows.ts): key design,
 * named reads and writes. Bucket: PK `TREND#<kind>#<UTC day>`, SK `<id>` → `n`, what that day
 * added to the id's 7-day window of `kind`; expires 30 days after its first add.
 */
export type TrendKind = 'subscribers' | 'views';

const pk = (kind: TrendKind, day: string) => `TREND#${kind}#${day}`;

/** The key of a trend bucket: what `day` added to `id`'s 7-day window of `kind`. */
export const trendBucketKey = (kind: TrendKind, day: string, id: string) => ({ PK: pk(kind, day), SK: id });

/** The transaction operation adding `delta` to a bucket (created by the first add). */
export const addToTrendBucketOperation = (
  kind: TrendKind,
  day: string,
  id: string,
  delta: number,
): TransactOperation => ({
  Update: {
    TableName: tableName(),
    Key: trendBucketKey(kind, day, id),
    ...updateOf({
      add: { n: delta },
      setIfAbsent: { [TABLE.ttlAttribute]: Math.floor(clock.now().getTime() / 1000) + 30 * 86_400 },
    }),
  },
});

/** Every bucket of `kind` for `day`, read consistently: the id and what it holds. */
export const trendBucketsOf = async (
  kind: TrendKind,
  day: string,
): Promise<Array<{ id: string; n: number }>> =>
  (
    await queryAll({
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': pk(kind, day) },
      ConsistentRead: true,
    })
  ).map((bucket) => ({ id: String(bucket.SK), n: Number(bucket.n ?? 0) }));

/** The transaction operation deleting a bucket on condition it still holds `n`. */
export const takeTrendBucketOperation = (
  kind: TrendKind,
  day: string,
  id: string,
  n: number,
): TransactOperation => ({
  Delete: {
    TableName: tableName(),
    Key: trendBucketKey(kind, day, id),
    ConditionExpression: 'n = :n',
    ExpressionAttributeValues: { ':n': n },
  },
});

/** Sets a bucket to 0 (its counted item is gone: nothing left to take from). Best effort: never throws. */
export const zeroTrendBucket = async (kind: TrendKind, day: string, id: string): Promise<void> => {
  await db
    .send(
      new UpdateCommand({
        TableName: tableName(),
        Key: trendBucketKey(kind, day, id),
        ...updateOf({ set: { n: 0 } }),
      }),
    )
    .catch(() => undefined);
};
