import { deletions, editDistance, TYPO_MIN_LENGTH, tokenize } from './normalize.ts';
import {
  type Card,
  type EntryRange,
  type SearchEntry,
  type SearchKind,
  searchEntriesPage,
  typoEntryItem,
  wordEntryItem,
} from './search-entry-repository.ts';

export type { Card, SearchKind } from './search-entry-repository.ts';
import { compareText } from '../compare.ts';
import { logger } from '../observability/index.ts';

/**
 * Inverted index for catalogue search, stored in the single table, read with bounded cost
 * (docs/search.md); its entries' keys and reads are shared/search/search-entry-repository.ts.
 * - word index: an entry per token of a document; a word query reads the entries of tokens
 *   starting with it, exact tokens first, most popular first.
 * - phrase index: an entry per document of 2+ words, under its first words: a query of several
 *   words reads the documents whose text starts with them, an exact full text first, however
 *   common each word is.
 * - typo index: for every token of 5+ letters, the token and each of its one-letter deletions
 *   (SymSpell), one entry per variant and document (two words sharing a variant share the
 *   entry); verified with an edit distance of 1.
 * Every entry carries the document's **card**: the fields its search result, filters and sorts
 * need, as a compact tuple its kind defines (shared/creators/creator-search.ts,
 * shared/shows/show-search.ts), from which the document's words are read too. A search page is
 * therefore served from index entries alone, and 21 cards fit one 4 KB read unit (docs/search.md).
 * Index entries are views (shared/projection/views.ts).
 */
type Item = Record<string, unknown>;

/**
 * How a kind's cards read: the document's fields from its id and card (undefined: not a card of
 * this kind's layout, e.g. an item of an older layout or a corrupted one), and the text its words
 * come from.
 */
export interface CardReader<D> {
  read: (id: string, card: unknown) => D | undefined;
  text: (doc: D) => string;
}

/** Popularity as a sort key, most popular first: 100 steps per power of ten, so it moves rarely. */
export const rankOf = (popularity: number): string =>
  String(999 - Math.min(999, Math.floor(Math.log10(Math.max(0, popularity) + 1) * 100))).padStart(3, '0');

/** Words of a phrase key (longer texts are indexed by their first words). */
const PHRASE_WORDS = 6;

/** The index items for one document (call when the document is written). */
export const searchItems = (
  kind: SearchKind,
  id: string,
  text: string,
  popularity: number,
  card: Card,
): Item[] => {
  const tokens = [...new Set(tokenize(text))];
  const rank = rankOf(popularity);
  const items: Item[] = tokens.map((token) => wordEntryItem(kind, token, rank, id, card));
  if (tokens.length > 1)
    items.push(wordEntryItem(kind, tokens.slice(0, PHRASE_WORDS).join('.'), rank, id, card));
  const variants = new Set(
    tokens
      .filter((token) => token.length >= TYPO_MIN_LENGTH)
      .flatMap((token) => [token, ...deletions(token)]),
  );
  for (const variant of variants) items.push(typoEntryItem(kind, variant, rank, id, card));
  return items;
};

/** A matching document: how well it matched (higher is better) and its fields, from its card. */
export interface SearchHit<D> {
  id: string;
  score: number;
  doc: D;
}

/**
 * Hits, and whether they are all the matches (`eq`) or the best of more (`gte`): then a read
 * stopped at its Limit (DynamoDB's LastEvaluatedKey: more index entries may match), and `total` is
 * at least `window + 1`, so that a client can always ask for the next page (it may come back
 * shorter, or empty when exactly `window` matched: several entries can be one document).
 */
export interface SearchResult<D> {
  hits: SearchHit<D>[];
  total: number;
  relation: 'eq' | 'gte';
}

/** The deepest match a search ranks (page × limit beyond it is an empty page), as OpenSearch's max_result_window. */
export const MAX_WINDOW = 200;
/** Pages of one index Query a filtered search reads at most while too few items pass its filter. */
const MAX_PAGES = 4;

const MATCH_EXACT = 3;
const MATCH_PREFIX = 2;
const MATCH_TYPO = 1;

interface Read {
  entries: SearchEntry[];
  complete: boolean;
}

/**
 * The first entries of one index range: `limit` per page, more pages only while fewer than
 * `limit` documents pass `keep`, at most MAX_PAGES. Documents, not entries: one document can have
 * several entries in a read (two words starting with "a"), and counting entries returned a short
 * page though more matched.
 */
const readIndex = async (
  range: EntryRange,
  limit: number,
  keep: (entry: SearchEntry) => boolean,
): Promise<Read> => {
  const entries: SearchEntry[] = [];
  const passing = new Set<string>();
  let start: Record<string, unknown> | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const read = await searchEntriesPage(range, limit, start);
    for (const entry of read.entries) {
      entries.push(entry);
      if (keep(entry)) passing.add(entry.id);
    }
    start = read.next;
    if (!start || passing.size >= limit) break;
  }
  return { entries, complete: start === undefined };
};

/** How well one query word matches a document's words (0: not at all). */
const matchStrength = (word: string, tokens: readonly string[]): number => {
  let best = 0;
  for (const token of tokens) {
    if (token === word) return MATCH_EXACT;
    if (token.startsWith(word)) best = MATCH_PREFIX;
    else if (
      best === 0 &&
      word.length >= TYPO_MIN_LENGTH &&
      token.length >= TYPO_MIN_LENGTH &&
      editDistance(word, token) <= 1
    )
      best = MATCH_TYPO;
  }
  return best;
};

/**
 * The documents matching every word of `query` (a word matches a document word exactly, as a
 * prefix, or, for words of 5+ letters, with one typo) and `keep`, best first: exact matches
 * outrank prefixes and typos, and a document whose words are exactly the query's outranks one
 * with more words. Reads at most `window` index items per Query (`window`: the matches the page
 * needs, capped at MAX_WINDOW), most popular first; when no word's candidates were read to the
 * end, the hits are the best of more and `relation` is `gte`. (Not `window + 1` to learn whether
 * more match: DynamoDB says so, and 20 cards rather than 21 keep a read within one 4 KB unit.)
 */
export const searchIndex = async <D>(
  kind: SearchKind,
  query: string,
  options: { window: number; cards: CardReader<D>; keep?: (doc: D) => boolean },
): Promise<SearchResult<D>> => {
  const words = [...new Set(tokenize(query))].slice(0, 8);
  if (words.length === 0) return { hits: [], total: 0, relation: 'eq' };
  const { cards } = options;
  const keepDoc = options.keep ?? (() => true);
  const limit = Math.min(options.window, MAX_WINDOW);
  const candidates = new Map<string, D>();
  // An entry whose card does not read is skipped, not a failed search: the rest still answer (and
  // the document too, when another of its entries reads). Logged once per search and document, by
  // the item's key only (the next rebuild-views rewrites the entry).
  const unreadable = new Set<string>();
  const docOf = ({ id, card, key }: SearchEntry): D | undefined => {
    const known = candidates.get(id);
    if (known !== undefined) return known;
    const doc = cards.read(id, card);
    if (doc !== undefined) candidates.set(id, doc);
    else if (!unreadable.has(id)) {
      unreadable.add(id);
      logger.warn('search: skipped an index entry whose card does not read', { kind, key });
    }
    return doc;
  };
  const keep = (entry: SearchEntry) => {
    const doc = docOf(entry);
    return doc !== undefined && keepDoc(doc);
  };
  const add = (entries: SearchEntry[]) => {
    for (const entry of entries) docOf(entry);
  };
  // Two round trips whatever the number of words (issue 41): every word's prefix read and the
  // phrase read at once, then the typo reads of every word that needs them at once. A word's
  // candidates are complete when its prefix read ended and, for a typo-tolerant word, its typo
  // reads ended too (they are only needed then: typos rank below a full page of prefixes). Each
  // word's typos waiting for its own prefix read only made a slow word's typos start after a fast
  // word's had ended: the same reads, measured one round trip longer.
  const phrase = words.slice(0, PHRASE_WORDS).join('.');
  const [prefixes] = await Promise.all([
    Promise.all(words.map((word) => readIndex({ kind, prefix: word }, limit, keep))),
    words.length > 1
      ? readIndex({ kind, prefix: phrase }, limit, keep).then((read) => add(read.entries))
      : undefined,
  ]);
  for (const read of prefixes) add(read.entries);
  const typos = await Promise.all(
    words.map((word, i) =>
      prefixes[i]!.complete && word.length >= TYPO_MIN_LENGTH
        ? Promise.all(
            [...new Set([word, ...deletions(word)])].map((v) => readIndex({ kind, variant: v }, limit, keep)),
          )
        : undefined,
    ),
  );
  for (const reads of typos) for (const read of reads ?? []) add(read.entries);
  const complete = words.map(
    (_, i) => prefixes[i]!.complete && (typos[i] ?? []).every((read) => read.complete),
  );
  const hits: SearchHit<D>[] = [];
  for (const [id, doc] of candidates) {
    if (!keepDoc(doc)) continue;
    const tokens = [...new Set(tokenize(cards.text(doc)))];
    let score = 0;
    for (const word of words) {
      const strength = matchStrength(word, tokens);
      if (strength === 0) {
        score = 0;
        break;
      }
      score += strength;
    }
    if (score === 0) continue;
    const exactText = tokens.length === words.length && tokens.every((token) => words.includes(token));
    hits.push({ id, score: score + (exactText ? 1 : 0), doc });
  }
  hits.sort((a, b) => b.score - a.score || compareText(a.id, b.id));
  return complete.some(Boolean)
    ? { hits, total: hits.length, relation: 'eq' }
    : { hits, total: Math.max(hits.length, limit + 1), relation: 'gte' };
};
