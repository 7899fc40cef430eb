import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApi, testApi } from '../support/api.ts';
import { type StudioCreator, studioCreator } from '../support/studio.ts';
import { waitFor } from '../support/wait.ts';

/**
 * The guide grid reads programs from the guide index (6-hour blocks of starts, channels in
 * number order; shared/epg/program-repository.ts). The programs here are placed where that read
 * can go wrong: a 12-hour program that began in an earlier block, programs on both sides of a
 * block boundary, one ending exactly at the window's start and one starting exactly at its end;
 * then moved and deleted through the studio (the index keys follow the item). Two new creators,
 * so the page holds two channels (a page of one channel reads the table instead).
 */

let api: TestApi;
let a: StudioCreator;
let b: StudioCreator;
/**
 * The window: DAY 00:00–06:00 UTC (`date` and `hours=6`); PREV is the day before. March 4 of the
 * run's year + 5 (2031 in 2026): ahead of any run, as a program starts no earlier than 24 hours
 * ago and at most 10 years ahead (a fixed 2031 made every create a 422 from 2031-03-02 on).
 */
const YEAR = new Date().getUTCFullYear() + 5;
const DAY = `${YEAR}-03-04`;
const PREV = `${YEAR}-03-03`;
const at = (day: string, hhmm: string) => `${day}T${hhmm}:00Z`;

beforeAll(async () => {
  api = await testApi();
  [a, b] = await Promise.all([studioCreator(api, 'comedy'), studioCreator(api, 'music')]);
});

const create = async (who: StudioCreator, title: string, start: string, end: string) => {
  const res = await api.post('/studio/channel/programs', {
    token: who.token,
    body: { title, rating: 'TV-PG', start_time: start, end_time: end },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.program_id as string;
};

const channelOf = async (who: StudioCreator) =>
  (await api.get(`/tv/v3/creators/${who.creatorId}`)).body.data.channels[0].channel_id as string;

/** The titles of each of the two channels' programs in the window, from the pages that hold them. */
const guide = async () => {
  const ids = [await channelOf(a), await channelOf(b)];
  const found = new Map<string, string[]>();
  for (let page = 1; found.size < 2; page++) {
    const res = await api.get(
      `/tv/v3/guide/schedule?timezone=UTC&date=${DAY}&hours=6&limit=100&page=${page}`,
    );
    expect(res.status).toBe(200);
    for (const ch of res.body.data.channels)
      if (ids.includes(ch.channel_id))
        found.set(
          ch.channel_id,
          ch.programs.map((p: any) => p.title),
        );
    if (page >= res.body.meta_data.total_pages) break;
  }
  return JSON.stringify([found.get(ids[0]!), found.get(ids[1]!)]);
};

const shows = (expected: unknown, what: string) =>
  waitFor(async () => (await guide()) === JSON.stringify(expected), what, 15_000).catch(async (error) => {
    throw new Error(`${(error as Error).message}: ${await guide()}`);
  });

describe('GET /tv/v3/guide/schedule from the guide index', () => {
  it('finds programs across blocks, long ones that began blocks earlier, and follows moves and deletes', async () => {
    // Channel a: a 12-hour program that began in the earliest block the window can need (PREV
    // 12:00–18:00), and one across the window's end.
    await create(a, 'Long haul', at(PREV, '12:30'), at(DAY, '00:30'));
    await create(a, 'Over the end', at(DAY, '05:30'), at(DAY, '06:30'));
    // Channel b: one ending where the window starts (not in it), one starting there, one starting
    // where it ends (not in it); and one outside the window, then moved into it (another block:
    // its index keys move with it).
    await create(b, 'After', at(DAY, '06:00'), at(DAY, '07:00'));
    await create(b, 'Before', at(PREV, '23:00'), at(DAY, '00:00'));
    await create(b, 'Midnight', at(DAY, '00:00'), at(DAY, '01:00'));
    const late = await create(b, 'Late', at(PREV, '20:00'), at(PREV, '21:00'));
    // The index is read eventually consistently: wait for it.
    await shows([['Long haul', 'Over the end'], ['Midnight']], 'the guide to show both channels');
    const moved = await api.patch(`/studio/channel/programs/${late}`, {
      token: b.token,
      body: { start_time: at(DAY, '04:00'), end_time: at(DAY, '05:00') },
    });
    expect(moved.status).toBe(200);
    await shows(
      [
        ['Long haul', 'Over the end'],
        ['Midnight', 'Late'],
      ],
      'the moved program in the guide',
    );
    expect((await api.delete(`/studio/channel/programs/${late}`, { token: b.token })).status).toBe(204);
    await shows([['Long haul', 'Over the end'], ['Midnight']], 'the deleted program gone from the guide');
  });
});
