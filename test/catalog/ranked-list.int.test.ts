import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  rankEntryItem,
  rankKey,
  rankTotalKey,
  readRankedPage,
  readRankedPages,
  readRankedTotals,
} from '../../shared/catalog/ranked-list.ts';
import { batchPut } from '../../shared/db/batch.ts';

/** Ids whose rank follows a descending score: id_1 has the highest. */
const ids = (n: number) => Array.from({ length: n }, (_, i) => `id_${i + 1}`);
const store = async (length: number) => {
  const list = `test#${randomUUID()}`;
  await batchPut([
    // Written in reverse: the order comes from the rank keys, not from the order of writes.
    ...ids(length)
      .reverse()
      .map((id) => rankEntryItem({ list, id, key: rankKey.desc(1_000_000 - Number(id.slice(3)), id) })),
    { ...rankTotalKey(list), total: length },
  ]);
  return list;
};

describe('ranked lists (entries in rank-key order)', () => {
  it('serves every page of every page size exactly', async () => {
    const length = 237;
    const list = await store(length);
    for (const limit of [1, 7, 30, 100, 238]) {
      const pages = Math.ceil(length / limit);
      const seen: string[] = [];
      for (let page = 1; page <= pages; page++) {
        const result = await readRankedPage(list, page, limit);
        expect(result.total).toBe(length);
        seen.push(...result.ids);
      }
      expect(seen).toEqual(ids(length));
    }
  });

  it('serves an id once when a read sees it at two places (a move read half-way), and reads on to fill the page', async () => {
    // A move is a delete and a put; a Query is not isolated from them (nor from a transaction's
    // half-applied writes), so a reader can meet the id at its old and its new place. BatchGetItem
    // refuses a request that names a key twice: the live list answered 500 while the audience
    // publisher re-ranked it (a clean-clone CI run, 2026-11-25).
    const list = await store(10);
    await batchPut([rankEntryItem({ list, id: 'id_2', key: rankKey.desc(1_000_000 - 4.5, 'id_2') })]);
    expect((await readRankedPage(list, 1, 5)).ids).toEqual(['id_1', 'id_2', 'id_3', 'id_4', 'id_5']);
    const seen = [];
    for (let page = 1; page <= 3; page++) seen.push(...(await readRankedPage(list, page, 4)).ids);
    expect(seen).toEqual(ids(10));
  });

  it('gives an empty page with the total past the end, and total 0 for an unknown list', async () => {
    const list = await store(12);
    expect(await readRankedPage(list, 2, 12)).toEqual({ ids: [], total: 12 });
    expect(await readRankedPage(list, 50, 100)).toEqual({ ids: [], total: 12 });
    expect(await readRankedPage(`test#${randomUUID()}`, 1, 20)).toEqual({ ids: [], total: 0 });
  });

  it('orders rank keys as their values: larger first (desc), smaller first (asc), later first (newest), ties by id', () => {
    const sorted = (keys: string[]) => [...keys].sort();
    expect(sorted([rankKey.desc(5, 'a'), rankKey.desc(500, 'b'), rankKey.desc(5, '0')])).toEqual([
      rankKey.desc(500, 'b'),
      rankKey.desc(5, '0'),
      rankKey.desc(5, 'a'),
    ]);
    expect(sorted([rankKey.asc(120, 'x'), rankKey.asc(99, 'y')])).toEqual([
      rankKey.asc(99, 'y'),
      rankKey.asc(120, 'x'),
    ]);
    expect(
      sorted([
        rankKey.newest('2026-01-01T00:00:00.000Z', 'a'),
        rankKey.newest('2026-06-01T00:00:00.000Z', 'b'),
      ]),
    ).toEqual([
      rankKey.newest('2026-06-01T00:00:00.000Z', 'b'),
      rankKey.newest('2026-01-01T00:00:00.000Z', 'a'),
    ]);
  });

  it('reads the same page of several lists at once, each with its own total', async () => {
    const [short, long] = [await store(105), await store(300)];
    const unknown = `test#${randomUUID()}`;
    expect(await readRankedPages([short, unknown, long], 2, 60)).toEqual([
      { ids: ids(105).slice(60), total: 105 },
      { ids: [], total: 0 },
      { ids: ids(120).slice(60), total: 300 },
    ]);
  });

  it('reads several totals at once, 0 for lists that do not exist', async () => {
    const [a, b] = [await store(3), await store(101)];
    expect(await readRankedTotals([a, `test#${randomUUID()}`, b])).toEqual([3, 0, 101]);
  });
});
