import { batchGet } from '../db/batch.ts';

/**
 * Ranked lists: a materialised view that makes page N of a sorted, filtered catalogue listing
 * one BatchGetItem of at most three small items, whatever N or the catalogue size.
 * Key design (owned here): PK `RANK#<list>`, SK `C#<chunk>` → `ids` (ranks chunk·CHUNK+1 to
 * (chunk+1)·CHUNK, in order) and `total` (the list's length, on every chunk). A page of at most
 * MAX_PAGE_SIZE (= CHUNK) ids spans one or two chunks; chunk 0 is always read too, so the total
 * is known even past the end. The catalogue loader (and, in production, the ranking job) rewrites
 * a list when rankings change; ids past `total` in a stale chunk of a once longer list are never served.
 */
export const CHUNK = 100;

const key = (list: string, chunk: number) => ({ PK: `RANK#${list}`, SK: `C#${chunk}` });
const keyOf = (item: Record<string, unknown>) => `${item.PK}|${item.SK}`;

/** Items that store `ids` (already in rank order) as list `list`. An empty list is one empty chunk. */
export const rankedListItems = (list: string, ids: readonly string[]): Record<string, unknown>[] =>
  Array.from({ length: Math.max(1, Math.ceil(ids.length / CHUNK)) }, (_, chunk) => ({
    ...key(list, chunk),
    total: ids.length,
    ids: ids.slice(chunk * CHUNK, (chunk + 1) * CHUNK),
  }));

export interface RankedPage {
  ids: string[];
  total: number;
}

/** Page `page` (1-based) of `limit` (≤ CHUNK) ids from list `list`, with the list's total. */
export const readRankedPage = async (list: string, page: number, limit: number): Promise<RankedPage> => {
  const first = (page - 1) * limit;
  const start = Math.floor(first / CHUNK);
  const chunks = [...new Set([0, start, Math.floor((first + limit - 1) / CHUNK)])];
  const found = await batchGet(
    chunks.map((chunk) => key(list, chunk)),
    keyOf,
  );
  const byChunk = new Map(found.map((item) => [String(item.SK), item]));
  const total = Number(byChunk.get('C#0')?.total ?? 0);
  const ids = chunks
    .filter((chunk) => chunk >= start)
    .flatMap((chunk) => ((byChunk.get(`C#${chunk}`)?.ids as unknown[] | undefined) ?? []).map(String));
  const offset = first - start * CHUNK;
  return { ids: ids.slice(offset, offset + Math.max(0, Math.min(limit, total - first))), total };
};

/** Totals of several lists, in one BatchGetItem of their first chunks. */
export const readRankedTotals = async (lists: readonly string[]): Promise<number[]> => {
  const items = await batchGet(
    lists.map((list) => key(list, 0)),
    keyOf,
  );
  const totals = new Map(items.map((item) => [String(item.PK), Number(item.total ?? 0)]));
  return lists.map((list) => totals.get(`RANK#${list}`) ?? 0);
};
