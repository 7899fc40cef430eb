import { QueryCommand } from '../db/document.ts';
import { db } from '../db/client.ts';
import { tableName } from '../db/table.ts';

/**
 * Search index entries: key design and access patterns of the inverted index that catalogue
 * search reads (shared/search/search-index.ts builds and ranks; docs/search.md). `<rank>` is the
 * document's popularity as a sort key, most popular first (`rankOf` there).
 * - word entry:   PK `SEARCH#<kind>#<first letter>`, SK `<token>#<rank>#<id>`: a word's entries
 *   are one Query with `begins_with(SK, word)`: exact tokens first (`#` sorts before any letter or
 *   digit), most popular first, then the longer tokens it is a prefix of.
 * - phrase entry: the same, with the document's first tokens joined by '.' as its token.
 * - typo entry:   PK `TYPO#<kind>#<variant>`, SK `<rank>#<id>`: one per variant (a token of 5+
 *   letters and each of its one-letter deletions) and document.
 * Every entry carries the document's card (`c`). Entries are views: the projections write them
 * (shared/projection/views.ts) from the items built here.
 */
export type SearchKind = 'creator' | 'show';

/** A document's card as stored: a tuple of its kind's search fields, kept short (no attribute names). */
export type Card = readonly unknown[];

/**
 * An entry as read: the document it names, its card as stored (not yet checked: an item written
 * by an older layout, or corrupted, can hold anything) and the item's key (for the log).
 */
export interface SearchEntry {
  id: string;
  card: unknown;
  key: { PK: string; SK: string };
}

/** Where entries are read: the word (or phrase) entries starting with `prefix`, or a typo variant's. */
export type EntryRange = { kind: SearchKind; prefix: string } | { kind: SearchKind; variant: string };

const wordPk = (kind: SearchKind, words: string) => `SEARCH#${kind}#${words[0]}`;
const typoPk = (kind: SearchKind, variant: string) => `TYPO#${kind}#${variant}`;
// `SEARCHDEL#`: the typo entries before they became `TYPO#` (issue 19); a rebuild deletes them.
const ENTRY_PREFIXES = ['SEARCH#', 'TYPO#', 'SEARCHDEL#'];

/** Is `item` a search entry (word, phrase or typo; or a typo entry of the old layout)? The rebuild's test of what is a view. */
export const isSearchEntryItem = (item: { PK?: unknown }): boolean =>
  typeof item.PK === 'string' && ENTRY_PREFIXES.some((prefix) => (item.PK as string).startsWith(prefix));

/** The item of a word entry (`words`: a token, or a phrase's tokens joined by '.'). */
export const wordEntryItem = (
  kind: SearchKind,
  words: string,
  rank: string,
  id: string,
  card: Card,
): Record<string, unknown> => ({ PK: wordPk(kind, words), SK: `${words}#${rank}#${id}`, c: card });

/** The item of a typo entry. */
export const typoEntryItem = (
  kind: SearchKind,
  variant: string,
  rank: string,
  id: string,
  card: Card,
): Record<string, unknown> => ({ PK: typoPk(kind, variant), SK: `${rank}#${id}`, c: card });

/**
 * One Query page of the entries of `range` in index order (at most `limit`; sort keys and cards
 * only), and where the next page starts.
 */
export const searchEntriesPage = async (
  range: EntryRange,
  limit: number,
  start: Record<string, unknown> | undefined,
): Promise<{ entries: SearchEntry[]; next: Record<string, unknown> | undefined }> => {
  const word = 'prefix' in range;
  const pk = word ? wordPk(range.kind, range.prefix) : typoPk(range.kind, range.variant);
  const result = await db.send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: word ? 'PK = :pk AND begins_with(SK, :prefix)' : 'PK = :pk',
      ExpressionAttributeValues: word ? { ':pk': pk, ':prefix': range.prefix } : { ':pk': pk },
      ProjectionExpression: 'SK, c',
      Limit: limit,
      ExclusiveStartKey: start,
    }),
  );
  // The id is the sort key's last part: `<token>#<rank>#<id>`, `<rank>#<id>`.
  const idAt = word ? 2 : 1;
  const entries = (result.Items ?? []).map((item) => ({
    id: String(item.SK).split('#')[idAt]!,
    card: item.c,
    key: { PK: pk, SK: String(item.SK) },
  }));
  return { entries, next: result.LastEvaluatedKey };
};
