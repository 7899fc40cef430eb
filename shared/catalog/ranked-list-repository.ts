import { QueryCommand } from '../db/document.ts';
import { batchGet } from '../db/batch.ts';
import { db } from '../db/client.ts';
import { tableName } from '../db/table.ts';
import type { TransactOperation } from '../db/transaction.ts';

/**
 * Ranked lists' items: key design and access patterns (the lists themselves, their rank keys
 * and pages: shared/catalog/ranked-list.ts; docs/projections.md, "Ranked lists").
 * - entry: PK `RANK#<list>`, SK `E#<rank key>` → `id` (and `creator_id` where the list records
 *   it). The rank key sorts entries in list order, so a list is one item collection read in key
 *   order, and moving an item is one delete and one put.
 * - total: PK `RANK#<list>`, SK `TOTAL` → `total` (the number of entries, moved by the projector
 *   in the same transaction that records which lists an item is in).
 * Entries and totals are written only by the projections (shared/projection/), from the items
 * and keys below.
 */
const PREFIX = 'RANK#';
const pk = (list: string) => `${PREFIX}${list}`;
const ENTRY = 'E#';

/** A place in a ranked list: the list, the rank key that orders it there, and what it names. */
export interface ListEntry {
  list: string;
  key: string;
  /** A creator id, a show id, an episode reference. */
  id: string;
  /**
   * The creator of what it names, where a page's response needs the creator beside the item (show
   * lists): a page then reads the items and their creators at once, not one after the other
   * (issue 41). Entries projected before it was recorded have none.
   */
  creatorId?: string;
}

/** An entry as a page reads it: what it names, its rank key, its creator where the list records one. */
export interface PageEntry {
  id: string;
  key: string;
  creatorId?: string;
}

/** An entry's item. */
export const rankEntryItem = (entry: ListEntry): Record<string, unknown> => ({
  PK: pk(entry.list),
  SK: `${ENTRY}${entry.key}`,
  id: entry.id,
  ...(entry.creatorId === undefined ? {} : { creator_id: entry.creatorId }),
});

/** The key of a list's total. */
export const rankTotalKey = (list: string) => ({ PK: pk(list), SK: 'TOTAL' });

/** The transaction operation adding `delta` (+1, -1) to a list's total. */
export const addRankTotalOperation = (list: string, delta: number): TransactOperation => ({
  Update: {
    TableName: tableName(),
    Key: rankTotalKey(list),
    UpdateExpression: 'ADD #total :delta',
    ExpressionAttributeNames: { '#total': 'total' },
    ExpressionAttributeValues: { ':delta': delta },
  },
});

/** The list an entry or total item belongs to (from its PK), or undefined for other items. */
export const listOfItem = (item: { PK?: unknown }): string | undefined =>
  typeof item.PK === 'string' && item.PK.startsWith(PREFIX) ? item.PK.slice(PREFIX.length) : undefined;

/**
 * One Query page of a list's entries in list order (of at most `limit`, or 1 MB: ids, keys and
 * creators only), and where the next one starts; `fromEnd` reads from the list's last entry back.
 */
export const rankedEntriesPage = async (
  list: string,
  start: Record<string, unknown> | undefined,
  limit?: number,
  options: { fromEnd?: boolean } = {},
): Promise<{ entries: PageEntry[]; next: Record<string, unknown> | undefined }> => {
  const result = await db.send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :entry)',
      ExpressionAttributeValues: { ':pk': pk(list), ':entry': ENTRY },
      ProjectionExpression: 'id, SK, creator_id',
      Limit: limit,
      ExclusiveStartKey: start,
      ...(options.fromEnd ? { ScanIndexForward: false } : {}),
    }),
  );
  const entries = (result.Items ?? []).map(
    (item): PageEntry => ({
      id: String(item.id),
      key: String(item.SK).slice(ENTRY.length),
      ...(typeof item.creator_id === 'string' ? { creatorId: item.creator_id } : {}),
    }),
  );
  return { entries, next: result.LastEvaluatedKey };
};

/** Totals of several lists (0 for a list never written), in one BatchGetItem. */
export const readRankedTotals = async (lists: readonly string[]): Promise<number[]> => {
  const found = await batchGet(lists.map(rankTotalKey));
  const byList = new Map(found.map((item) => [listOfItem(item), Number(item.total ?? 0)]));
  return lists.map((list) => byList.get(list) ?? 0);
};
