import { QueryCommand } from '../db/document.ts';
import { batchGet } from '../db/batch.ts';
import { db } from '../db/client.ts';
import { tableName } from '../db/table.ts';

/**
 * Ranked lists: a materialised view that makes page N of a sorted, filtered catalogue listing
 * one Query plus one small read of the list's total, and that one change keeps true with work
 * independent of the catalogue's size (docs/projections.md, "Ranked lists").
 * Key design (owned here):
 * - entry: PK `RANK#<list>`, SK `E#<rank key>` → `id`. The rank key sorts entries in list order
 *   (`rankKey` below: the sort value, then the id as tie-break), so a list is one item
 *   collection read in key order, and moving an item is one delete and one put.
 * - total: PK `RANK#<list>`, SK `TOTAL` → `total` (the number of entries, moved by the projector
 *   in the same transaction that records which lists an item is in).
 * Entries and totals are written only by the projections (shared/projection/).
 */
const PK = (list: string) => `RANK#${list}`;
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

/** An entry's item. */
export const rankEntryItem = (entry: ListEntry): Record<string, unknown> => ({
  PK: PK(entry.list),
  SK: `${ENTRY}${entry.key}`,
  id: entry.id,
  ...(entry.creatorId === undefined ? {} : { creator_id: entry.creatorId }),
});

/** The key of a list's total. */
export const rankTotalKey = (list: string) => ({ PK: PK(list), SK: 'TOTAL' });

/** The list an entry or total item belongs to (from its PK), or undefined for other items. */
export const listOfItem = (item: { PK?: unknown }): string | undefined =>
  typeof item.PK === 'string' && item.PK.startsWith('RANK#') ? item.PK.slice(5) : undefined;

const WIDTH = 16;
const CEILING = 9_000_000_000_000_000; // above any count or epoch-millisecond value we rank by
const digits = (n: number) => String(Math.max(0, Math.min(CEILING, Math.trunc(n)))).padStart(WIDTH, '0');

/** The value an `asc` rank key orders by (a channel number). */
export const ascValueOf = (key: string): number => Number(key.slice(0, WIDTH));

/** Rank keys: fixed-width digits that sort as strings in list order, then the id. */
export const rankKey = {
  /** Larger values first (counts, epoch milliseconds). */
  desc: (value: number, id: string) => `${digits(CEILING - value)}#${id}`,
  /** Smaller values first (channel numbers). */
  asc: (value: number, id: string) => `${digits(value)}#${id}`,
  /** Later ISO instants first. */
  newest: (iso: string, id: string) => `${digits(CEILING - Date.parse(iso))}#${id}`,
};

export interface RankedPage {
  ids: string[];
  total: number;
}

/** An entry as a page reads it: what it names, its rank key, its creator where the list records one. */
export interface PageEntry {
  id: string;
  key: string;
  creatorId?: string;
}

/**
 * The first `count` entries of a list with distinct ids, in order (Queries of the entries' ids,
 * keys and creators only, following pages). A Query is isolated neither from a move's delete and
 * put nor from a transaction's half-applied writes, so it can meet an id at its old and its new
 * place: the id counts once, at the first.
 */
const readEntries = async (list: string, count: number): Promise<PageEntry[]> => {
  const entries = new Map<string, PageEntry>();
  let start: Record<string, unknown> | undefined;
  while (entries.size < count) {
    const page = await entriesPage(list, start, count - entries.size);
    for (const entry of page.entries) if (!entries.has(entry.id)) entries.set(entry.id, entry);
    start = page.next;
    if (!start) break;
  }
  return [...entries.values()];
};

/** One Query page of a list's entries (of at most `limit`, or 1 MB), and where the next one starts. */
const entriesPage = async (list: string, start: Record<string, unknown> | undefined, limit?: number) => {
  const result = await db.send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :entry)',
      ExpressionAttributeValues: { ':pk': PK(list), ':entry': ENTRY },
      ProjectionExpression: 'id, SK, creator_id',
      Limit: limit,
      ExclusiveStartKey: start,
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

/**
 * Every id of a list, in order, one Query page at a time (operator jobs that visit a whole list;
 * a request reads pages). An id met twice (a move seen half-done, as in readEntries) is given once.
 */
export async function* allRankedIds(list: string): AsyncGenerator<string> {
  const seen = new Set<string>();
  let start: Record<string, unknown> | undefined;
  do {
    const page = await entriesPage(list, start);
    for (const { id } of page.entries) {
      if (seen.has(id)) continue;
      seen.add(id);
      yield id;
    }
    start = page.next;
  } while (start);
}

/**
 * Page `page` (1-based) of `limit` entries from each of `lists`, with each list's total: one Query
 * per list (reading the entries up to the page's end: a deep page reads more, ~60 entries per
 * 4 KB) and one BatchGetItem of all the totals, at once.
 */
export const readRankedEntryPages = async (
  lists: readonly string[],
  page: number,
  limit: number,
): Promise<Array<{ entries: PageEntry[]; total: number }>> => {
  const first = (page - 1) * limit;
  const [totals, ...pages] = await Promise.all([
    readRankedTotals(lists),
    ...lists.map((list) => (limit > 0 ? readEntries(list, first + limit) : Promise.resolve([]))),
  ]);
  return lists.map((_, i) => ({ entries: pages[i]!.slice(first, first + limit), total: totals[i] ?? 0 }));
};

/** `readRankedEntryPages` of one list. */
export const readRankedEntries = async (list: string, page: number, limit: number) =>
  (await readRankedEntryPages([list], page, limit))[0]!;

/** Page `page` (1-based) of `limit` ids from each of `lists`, with each list's total. */
export const readRankedPages = async (
  lists: readonly string[],
  page: number,
  limit: number,
): Promise<RankedPage[]> =>
  (await readRankedEntryPages(lists, page, limit)).map(({ entries, total }) => ({
    ids: entries.map((e) => e.id),
    total,
  }));

/** Page `page` (1-based) of `limit` ids from list `list`, with the list's total. */
export const readRankedPage = async (list: string, page: number, limit: number): Promise<RankedPage> =>
  (await readRankedPages([list], page, limit))[0]!;

/** Totals of several lists, in one BatchGetItem. */
export const readRankedTotals = async (lists: readonly string[]): Promise<number[]> => {
  const found = await batchGet(lists.map(rankTotalKey));
  const byList = new Map(found.map((item) => [listOfItem(item), Number(item.total ?? 0)]));
  return lists.map((list) => byList.get(list) ?? 0);
};
