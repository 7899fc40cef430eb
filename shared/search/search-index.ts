import { queryAll } from '../db/query.ts';
import { deletions, editDistance, TYPO_MIN_LENGTH, tokenize } from './normalize.ts';

/**
 * Inverted index for catalogue search, stored in the single table. Key design (owned here):
 * - prefix index:   PK `SEARCH#<kind>#<first letter>`, SK `<token>#<id>`: a word-prefix query
 *   is one Query with `begins_with(SK, prefix)`.
 * - typo index:     PK `SEARCHDEL#<kind>#<variant>`, SK `<id>#<token>` for every token of 5+
 *   letters and each of its one-letter deletions (SymSpell): a typo lookup is one Query per
 *   deletion variant of the query word, verified with an edit distance of at most 1.
 * Index items carry the document's facets (filter and sort keys), so a search reads only index
 * items plus the documents of the page it returns. Facets are refreshed whenever the loader (in
 * production, the catalogue ingestion) rewrites the document.
 */
export type SearchKind = 'creator' | 'show';

type Item = Record<string, unknown>;

/** Small attributes copied onto every index item, so hits can be filtered, sorted and counted without reading the documents. */
export type Facets = Record<string, string | number | boolean>;

/** The index items for one document (call when the document is written). */
export const searchItems = (kind: SearchKind, id: string, text: string, facets: Facets = {}): Item[] => {
  const items: Item[] = [];
  for (const token of new Set(tokenize(text))) {
    items.push({ PK: `SEARCH#${kind}#${token[0]}`, SK: `${token}#${id}`, id, token, f: facets });
    if (token.length >= TYPO_MIN_LENGTH) {
      for (const variant of new Set([token, ...deletions(token)])) {
        items.push({ PK: `SEARCHDEL#${kind}#${variant}`, SK: `${id}#${token}`, id, token, f: facets });
      }
    }
  }
  return items;
};

/** A matching document: how well it matched (higher is better) and its facets. */
export interface SearchHit {
  id: string;
  score: number;
  facets: Facets;
}

const MATCH_EXACT = 3;
const MATCH_PREFIX = 2;
const MATCH_TYPO = 1;

/** Index items of one partition (optionally a prefix of its sort keys), paged through up to about `cap`. */
const readIndex = (input: { pk: string; prefix?: string }, cap: number): Promise<Item[]> =>
  queryAll(
    {
      KeyConditionExpression: input.prefix ? 'PK = :pk AND begins_with(SK, :prefix)' : 'PK = :pk',
      ExpressionAttributeValues: { ':pk': input.pk, ...(input.prefix ? { ':prefix': input.prefix } : {}) },
      ProjectionExpression: 'id, #token, f',
      ExpressionAttributeNames: { '#token': 'token' },
    },
    cap,
  );

/** Best match of one query word against the index: id → match strength (facets remembered). */
const matchWord = async (
  kind: SearchKind,
  word: string,
  facets: Map<string, Facets>,
): Promise<Map<string, number>> => {
  const scores = new Map<string, number>();
  const bump = (id: string, score: number, item: Item) => {
    scores.set(id, Math.max(scores.get(id) ?? 0, score));
    if (!facets.has(id)) facets.set(id, (item.f as Facets | undefined) ?? {});
  };
  const lookups: Promise<void>[] = [
    readIndex({ pk: `SEARCH#${kind}#${word[0]}`, prefix: word }, 5000).then((items) => {
      for (const item of items) bump(String(item.id), item.token === word ? MATCH_EXACT : MATCH_PREFIX, item);
    }),
  ];
  if (word.length >= TYPO_MIN_LENGTH) {
    for (const variant of new Set([word, ...deletions(word)])) {
      lookups.push(
        readIndex({ pk: `SEARCHDEL#${kind}#${variant}` }, 1000).then((items) => {
          for (const item of items)
            if (editDistance(word, String(item.token)) <= 1) bump(String(item.id), MATCH_TYPO, item);
        }),
      );
    }
  }
  await Promise.all(lookups);
  return scores;
};

/**
 * Ids matching every word of `query` (a word matches a document word exactly, as a prefix, or,
 * for words of 5+ letters, with one typo), best first: exact matches outrank prefixes and typos.
 */
export const searchIds = async (kind: SearchKind, query: string): Promise<SearchHit[]> => {
  const words = [...new Set(tokenize(query))].slice(0, 8);
  if (words.length === 0) return [];
  const facets = new Map<string, Facets>();
  const perWord = await Promise.all(words.map((word) => matchWord(kind, word, facets)));
  const [first, ...rest] = perWord;
  const hits: SearchHit[] = [];
  for (const [id, score] of first ?? new Map<string, number>()) {
    let total = score;
    let all = true;
    for (const other of rest) {
      const s = other.get(id);
      if (s === undefined) {
        all = false;
        break;
      }
      total += s;
    }
    if (all) hits.push({ id, score: total, facets: facets.get(id) ?? {} });
  }
  return hits.sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
};
