import { backoff } from '../backoff.ts';
import { BatchGetCommand, BatchWriteCommand } from './document.ts';
import { db } from './client.ts';
import { keyString } from './key.ts';
import { tableName } from './table.ts';

type Item = Record<string, unknown>;
type Key = Record<string, unknown>;

const chunk = <T>(items: readonly T[], size: number): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
};

/**
 * BatchGetItem for any number of keys (chunks of 100, unprocessed keys retried, bounded).
 * Returns items in the order of `keys`; missing items are left out. A key named twice is read
 * once (BatchGetItem refuses a request that names a key twice) and answered at each place.
 * `consistent`: strongly consistent reads (what a write a moment before must be seen by).
 */
export const batchGet = async (
  keys: readonly Key[],
  options: { consistent?: boolean } = {},
): Promise<Item[]> => {
  if (keys.length === 0) return [];
  const table = tableName();
  const found = new Map<string, Item>();
  const distinct = [...new Map(keys.map((key) => [keyString(key), key])).values()];
  await Promise.all(
    chunk(distinct, 100).map(async (part) => {
      let pending: Key[] | undefined = part;
      for (let attempt = 0; pending && pending.length > 0; attempt++) {
        if (attempt > 6)
          throw Object.assign(new Error('BatchGet unprocessed keys'), { name: 'ThrottlingException' });
        if (attempt > 0) await backoff(attempt, 20);
        const result = await db.send(
          new BatchGetCommand({
            RequestItems: {
              [table]: { Keys: pending, ...(options.consistent ? { ConsistentRead: true } : {}) },
            },
          }),
        );
        for (const item of result.Responses?.[table] ?? []) found.set(keyString(item), item);
        pending = result.UnprocessedKeys?.[table]?.Keys as Key[] | undefined;
      }
    }),
  );
  return keys.map((key) => found.get(keyString(key))).filter((item): item is Item => item !== undefined);
};

type WriteRequest = { PutRequest: { Item: Item } } | { DeleteRequest: { Key: Key } };

/** BatchWriteItem for any number of requests, with bounded parallelism and retries of unprocessed ones. */
const batchWrite = async (requests: readonly WriteRequest[], parallelism: number): Promise<void> => {
  const table = tableName();
  const parts = chunk(requests, 25);
  let next = 0;
  const worker = async () => {
    while (next < parts.length) {
      let pending: WriteRequest[] = parts[next++]!;
      for (let attempt = 0; pending.length > 0; attempt++) {
        if (attempt > 8) throw new Error('BatchWrite: unprocessed items after retries');
        if (attempt > 0) await backoff(attempt, 20);
        const result = await db.send(new BatchWriteCommand({ RequestItems: { [table]: pending } }));
        pending = (result.UnprocessedItems?.[table] ?? []) as WriteRequest[];
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallelism, parts.length) }, worker));
};

/** Puts any number of items (BatchWriteItem). */
export const batchPut = (items: readonly Item[], parallelism = 8): Promise<void> =>
  batchWrite(
    items.map((Item) => ({ PutRequest: { Item } })),
    parallelism,
  );

/** Puts and deletes (by key) any number of items in BatchWriteItem calls; each is idempotent. */
export const batchPutDelete = (
  puts: readonly Item[],
  deletes: readonly Key[],
  parallelism = 8,
): Promise<void> =>
  batchWrite(
    [
      ...puts.map((Item) => ({ PutRequest: { Item } })),
      ...deletes.map((Key) => ({ DeleteRequest: { Key } })),
    ],
    parallelism,
  );
