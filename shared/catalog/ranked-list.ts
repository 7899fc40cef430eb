import { batchGet, primaryKeyOf as keyOf } from '../db/batch.ts';

/**
 * Ranked lists: a materialised view that makes page N of a sorted, filtered catalogue listing
 * one BatchGetItem of at most three small items (for pages of up to CHUNK ids), whatever N or the
 * catalogue size.
 * Key design (owned here): PK `RANK#<list>`, SK `C#<chunk>` → `ids` (ranks chunk·CHUNK+1 to
 * (chunk+1)·CHUNK, in order) and `total` (the list's length, on every chunk). A page of at most
 * MAX_PAGE_SIZE (= CHUNK) ids spans one or two chunks, a longer one more; chunk 0 is always read
 * too, so the total is known even past the end. The catalogue loader (and, in production, the
 * ranking job) rewrites a list when rankings change; ids past `total` in a stale chunk of a once
 * longer list are never served.
 */
export const CHUNK = 100;

const key = (list: string, chunk: number) => ({ PK: `RANK#${list}`, SK: `C#${chunk}` });

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

/**
 * Page `page` (1-based) of `limit` ids from each of `lists`, with each list's total: one
 * BatchGetItem for all of them (chunk 0 of every list, plus the chunks the page spans).
 */
export const readRankedPages = async (
  lists: readonly string[],
  page: number,
  limit: number,
): Promise<RankedPage[]> => {
  const first = (page - 1) * limit;
  const start = Math.floor(first / CHUNK);
  const end = Math.floor((first + limit - 1) / CHUNK);
  const chunks = [...new Set([0, ...Array.from({ length: end - start + 1 }, (_, i) => start + i)])];
  const found = await batchGet(
    lists.flatMap((list) => chunks.map((chunk) => key(list, chunk))),
    keyOf,
  );
  const byKey = new Map(found.map((item) => [keyOf(item), item]));
  const offset = first - start * CHUNK;
  return lists.map((list) => {
    const chunk = (n: number) => byKey.get(keyOf(key(list, n)));
    const total = Number(chunk(0)?.total ?? 0);
    const ids = chunks
      .filter((n) => n >= start)
      .flatMap((n) => ((chunk(n)?.ids as unknown[] | undefined) ?? []).map(String));
    return { ids: ids.slice(offset, offset + Math.max(0, Math.min(limit, total - first))), total };
  });
};

/** Page `page` (1-based) of `limit` ids from list `list`, with the list's total. */
export const readRankedPage = async (list: string, page: number, limit: number): Promise<RankedPage> =>
  (await readRankedPages([list], page, limit))[0]!;

/** Totals of several lists, in one BatchGetItem of their first chunks. */
export const readRankedTotals = async (lists: readonly string[]): Promise<number[]> =>
  (await readRankedPages(lists, 1, 0)).map((page) => page.total);
