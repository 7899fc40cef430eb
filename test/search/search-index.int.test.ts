import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { batchPut } from '../../shared/db/batch.ts';
import { type Card, type CardReader, searchIndex, searchItems } from '../../shared/search/search-index.ts';

/** A word no other test file writes (the table is shared): letters and digits, one token. */
const uniqueWord = () => `zq${randomUUID().replace(/-/g, '').slice(0, 10)}`;
type Doc = { id: string; text: string; popularity: number };
/** A card of this file's documents: their text and popularity. */
const cards: CardReader<Doc> = {
  read: (id, card) => {
    const [text, popularity] = card as Card;
    return { id, text: String(text), popularity: Number(popularity) };
  },
  text: (doc) => doc.text,
};
const index = (docs: Doc[]) =>
  batchPut(docs.flatMap((d) => searchItems('show', d.id, d.text, d.popularity, [d.text, d.popularity])));
const searchIds = (query: string, options: { window: number; keep?: (doc: Doc) => boolean }) =>
  searchIndex('show', query, { ...options, cards });

describe('search index (bounded reads, docs/search.md)', () => {
  it('ranks an exact full title above titles that start with it, however popular they are', async () => {
    const word = uniqueWord();
    // Not a real word as the second either: the table is shared, and these cards are not shows'
    // (with "Laughs", the bench's `midnight laughs` sample read them and answered 500).
    const second = uniqueWord();
    const id = (n: number) => `sh_${word}_${n}`;
    await index([
      { id: id(0), text: `${word} ${second}`, popularity: 1 },
      // Thirty far more popular titles that start with it: each word's read is full of them.
      ...Array.from({ length: 30 }, (_, i) => ({
        id: id(i + 2),
        text: `${word} ${second} ${i + 2}`,
        popularity: 1_000_000 + i,
      })),
    ]);
    for (const window of [1, 20]) {
      const { hits } = await searchIds(`${word} ${second}`, { window });
      expect(hits[0]?.id, `window ${window}`).toBe(id(0));
      expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
    }
    // With a typo in the first word the exact title still leads (it matches every word exactly but one).
    const typo = `${word.slice(0, 4)}${word.slice(5)} ${second}`;
    const { hits } = await searchIds(typo, { window: 40 });
    expect(hits.map((h) => h.id)).toContain(id(0));
  });

  it('reads at most window entries per lookup, most popular first, and says when the total is a lower bound', async () => {
    const word = uniqueWord();
    const docs = Array.from({ length: 30 }, (_, i) => ({
      id: `sh_${word}_${i + 1}`,
      text: word,
      popularity: (i + 1) * 1000,
    }));
    await index(docs);
    const bounded = await searchIds(word, { window: 20 });
    expect(bounded.relation).toBe('gte');
    expect(bounded.total).toBe(21);
    // The 20 most popular of the 30, and no others.
    expect(new Set(bounded.hits.map((h) => h.id))).toEqual(new Set(docs.slice(10).map((d) => d.id)));
    const whole = await searchIds(word, { window: 40 });
    expect(whole.relation).toBe('eq');
    expect(whole.hits).toHaveLength(30);
    // A filter reads further pages (4 at most) while too few pass: pages of 6 from the most
    // popular reach the 24th, so the 4 that pass among them (7th to 10th least popular).
    const filtered = await searchIds(word, {
      window: 6,
      keep: (doc) => doc.popularity <= 10_000,
    });
    expect(filtered.relation).toBe('gte');
    expect(new Set(filtered.hits.map((h) => h.id))).toEqual(new Set(docs.slice(6, 10).map((d) => d.id)));
  });

  it('fills a page with documents, not index entries, when documents have several words a prefix matches', async () => {
    const word = uniqueWord();
    // Each document has two words of its own starting with the query (and a phrase item): its
    // entries sort next to each other, so a read of window + 1 entries held only a third as many
    // documents, and the page came back short though more matched.
    const docs = 'abcdefgh'.split('').map((letter, i) => ({
      id: `sh_${word}_${letter}`,
      text: `${word}a${letter} ${word}b${letter}`,
      popularity: (i + 1) * 1000,
    }));
    await index(docs);
    const page = await searchIds(word, { window: 5 });
    expect(page.relation).toBe('gte');
    expect(page.hits.length).toBeGreaterThanOrEqual(5);
    expect(page.total).toBeGreaterThan(5);
  });
});
