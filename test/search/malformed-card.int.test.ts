import { randomUUID } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { batchPut } from '../../shared/db/batch.ts';
import { logger } from '../../shared/observability/index.ts';
import {
  type SearchKind,
  searchEntriesPage,
  wordEntryItem,
} from '../../shared/search/search-entry-repository.ts';
import { type TestApi, testApi } from '../support/api.ts';

/**
 * A search index entry whose card does not read (an item of an older layout, or corrupted) is
 * skipped: the search answers 200 with the other matches, and logs the entry's key once at warn
 * level (docs/search.md).
 */
let api: TestApi;
beforeAll(async () => {
  api = await testApi();
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** A word no other test file writes (the table is shared). */
const uniqueWord = () => `zm${randomUUID().replace(/-/g, '').slice(0, 10)}`;

/**
 * A real card of `kind` from the seeded index (the demo catalogue has words starting with "a"),
 * named `word` (a card's first field is the name or title its words come from).
 */
const realCard = async (kind: SearchKind, word: string): Promise<unknown[]> => {
  const { entries } = await searchEntriesPage({ kind, prefix: 'a' }, 1, undefined);
  const [, ...rest] = entries[0]!.card as unknown[];
  return [word, ...rest];
};

describe.each([
  {
    kind: 'creator' as const,
    path: '/creators/search',
    prefix: 'cr',
    ids: (body: any) => body.data.creators,
  },
  { kind: 'show' as const, path: '/shows/search', prefix: 'sh', ids: (body: any) => body.data.shows },
])('GET $path with malformed cards in the index', ({ kind, path, prefix, ids }) => {
  it('answers 200 with the readable matches and logs each unreadable entry once, by its key', async () => {
    const word = uniqueWord();
    const good = await realCard(kind, word);
    const malformed: Array<[string, unknown]> = [
      // An old layout: the card as a map of the response's keys.
      ['map', { name: 'Old', subscribers: 3 }],
      // Too short, wrong types, not an array at all, missing.
      ['short', ['Only a name']],
      ['types', [word, ...good.slice(1).map(() => 42)]],
      ['text', 'not a card'],
      ['missing', undefined],
    ];
    const goodId = `${prefix}_${word}good`;
    const items = [
      wordEntryItem(kind, word, '500', goodId, good as never),
      ...malformed.map(([label, card], i) => {
        const item = wordEntryItem(kind, word, `40${i}`, `${prefix}_${word}${label}`, card as never);
        if (card === undefined) delete item.c;
        return item;
      }),
    ];
    await batchPut(items);
    const warn = vi.spyOn(logger, 'warn');
    const res = await api.get(`${path}?q=${word}&limit=50`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(ids(res.body).map((d: { id: string }) => d.id)).toEqual([goodId]);
    const skipped = warn.mock.calls.filter(([message]) => message.startsWith('search: skipped'));
    expect(skipped.map(([, fields]) => (fields as { key: { SK: string } }).key.SK).sort()).toEqual(
      items
        .slice(1)
        .map((item) => item.SK)
        .sort(),
    );
    // Only the entry's key and the kind: nothing of the query or the card.
    for (const [, fields] of skipped) expect(Object.keys(fields as object).sort()).toEqual(['key', 'kind']);
  });
});
