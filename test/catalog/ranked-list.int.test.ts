import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  CHUNK,
  rankedListItems,
  readRankedPage,
  readRankedPages,
  readRankedTotals,
} from '../../shared/catalog/ranked-list.ts';
import { batchPut } from '../../shared/db/batch.ts';

const ids = (n: number) => Array.from({ length: n }, (_, i) => `id_${i + 1}`);
const store = async (length: number) => {
  const list = `test#${randomUUID()}`;
  await batchPut(rankedListItems(list, ids(length)));
  return list;
};

describe('ranked lists (chunked)', () => {
  it('serves every page of every page size exactly, across chunk boundaries', async () => {
    const length = 2 * CHUNK + 37;
    const list = await store(length);
    for (const limit of [1, 7, 30, CHUNK, 2 * CHUNK + 1]) {
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

  it('gives an empty page with the total past the end, and total 0 for an unknown list', async () => {
    const list = await store(12);
    expect(await readRankedPage(list, 2, 12)).toEqual({ ids: [], total: 12 });
    expect(await readRankedPage(list, 10_000, CHUNK)).toEqual({ ids: [], total: 12 });
    expect(await readRankedPage(`test#${randomUUID()}`, 1, 20)).toEqual({ ids: [], total: 0 });
  });

  it('never serves ids past the total from a stale chunk left by a longer list', async () => {
    const list = `test#${randomUUID()}`;
    await batchPut(rankedListItems(list, ids(CHUNK + 50)));
    await batchPut(
      rankedListItems(
        list,
        ids(CHUNK - 10).map((id) => `new_${id}`),
      ),
    );
    const last = await readRankedPage(list, 2, CHUNK / 2);
    expect(last.total).toBe(CHUNK - 10);
    expect(last.ids).toEqual(
      ids(CHUNK - 10)
        .slice(CHUNK / 2)
        .map((id) => `new_${id}`),
    );
    expect(await readRankedPage(list, 3, CHUNK / 2)).toEqual({ ids: [], total: CHUNK - 10 });
  });

  it('reads the same page of several lists at once, each with its own total', async () => {
    const [short, long] = [await store(CHUNK + 5), await store(3 * CHUNK)];
    const unknown = `test#${randomUUID()}`;
    expect(await readRankedPages([short, unknown, long], 2, 60)).toEqual([
      { ids: ids(CHUNK + 5).slice(60), total: CHUNK + 5 },
      { ids: [], total: 0 },
      { ids: ids(120).slice(60), total: 3 * CHUNK },
    ]);
  });

  it('reads several totals at once, 0 for lists that do not exist', async () => {
    const [a, b] = [await store(3), await store(CHUNK + 1)];
    expect(await readRankedTotals([a, `test#${randomUUID()}`, b])).toEqual([3, 0, CHUNK + 1]);
  });
});
