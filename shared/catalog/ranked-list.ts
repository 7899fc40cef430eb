import { type PageEntry, rankedEntriesPage, readRankedTotals } from './ranked-list-repository.ts';

/**
 * Ranked lists: a materialised view that makes page N of a sorted, filtered catalogue listing
 * one Query plus one small read of the list's total, and that one change keeps true with work
 * independent of the catalogue's size (docs/projections.md, "Ranked lists"). Their items (entries
 * and totals) and how they are read: shared/catalog/ranked-list-repository.ts. Here: the rank
 * keys that order a list, and its pages.
 */
// The projections write entries and totals from the repository's items and keys.
export {
  addRankTotalOperation,
  type ListEntry,
  listOfItem,
  type PageEntry,
  rankedEntriesPage,
  rankEntryItem,
  rankTotalKey,
  readRankedTotals,
} from './ranked-list-repository.ts';

const WIDTH = 16;
const CEILING = 9_000_000_000_000_000; // above any count or epoch-millisecond value we rank by
const digits = (n: number) => String(Math.max(0, Math.min(CEILING, Math.trunc(n)))).padStart(WIDTH, '0');

/** The value an `asc` rank key orders by (a channel number). */
export const ascValueOf = (key: string): number => Number(key.slice(0, WIDTH));

/** The epoch milliseconds a `newest` (or `desc`) rank key orders by. */
export const newestValueOf = (key: string): number => CEILING - Number(key.slice(0, WIDTH));

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
    const page = await rankedEntriesPage(list, start, count - entries.size);
    for (const entry of page.entries) if (!entries.has(entry.id)) entries.set(entry.id, entry);
    start = page.next;
    if (!start) break;
  }
  return [...entries.values()];
};

/**
 * Every id of a list, in order, one Query page at a time (operator jobs that visit a whole list;
 * a request reads pages). An id met twice (a move seen half-done, as in readEntries) is given once.
 */
export async function* allRankedIds(list: string): AsyncGenerator<string> {
  const seen = new Set<string>();
  let start: Record<string, unknown> | undefined;
  do {
    const page = await rankedEntriesPage(list, start);
    for (const { id } of page.entries) {
      if (seen.has(id)) continue;
      seen.add(id);
      yield id;
    }
    start = page.next;
  } while (start);
}

/** Every id of a list, in order (`allRankedIds` gathered: lists bounded by design, such as the live list). */
export const allRankedIdsOf = async (list: string): Promise<string[]> => {
  const ids: string[] = [];
  for await (const id of allRankedIds(list)) ids.push(id);
  return ids;
};

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
