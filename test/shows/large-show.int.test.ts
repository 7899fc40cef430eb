import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EpisodeRecord, ShowRecord } from '../../shared/catalog/model.ts';
import { batchPut } from '../../shared/db/batch.ts';
import { episodeItem, showItem, tallyOf } from '../../shared/shows/show-repository.ts';
import { generateCatalog } from '../../scripts/seed/generate.ts';
import { type TestApi, testApi } from '../support/api.ts';
import { studioCreator } from '../support/studio.ts';

/**
 * A show whose detail is over Lambda's 6 MB response limit uncompressed (docs/performance.md,
 * "Large answers: gzip"): 3,600 episodes with ~1.6 KB titles, written as the studio's items
 * (`showItem`, `episodeItem`) straight into the table, for a fresh creator of its own.
 */
const EPISODES = 3600;
const PER_SEASON = 300;

let api: TestApi;
let show: ShowRecord;
beforeAll(async () => {
  api = await testApi();
  const catalog = generateCatalog({ now: api.seededAt, seed: 42 });
  const { creatorId } = await studioCreator(api);
  const template = catalog.shows[0]!;
  const id = `sh_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const words = catalog.episodes.map((e) => e.title);
  const episodes: EpisodeRecord[] = Array.from({ length: EPISODES }, (_, i) => {
    const like = catalog.episodes[i % catalog.episodes.length]!;
    const title = Array.from({ length: 60 }, (_, w) => words[(i * 61 + w * 7) % words.length]).join(' ');
    return {
      ...like,
      id: `ep_${id}_${i}`,
      show_id: id,
      creator_id: creatorId,
      season: 1 + Math.floor(i / PER_SEASON),
      episode_number: 1 + (i % PER_SEASON),
      title: title.slice(0, 1600),
      views: 0,
    };
  });
  show = {
    ...template,
    id,
    slug: `large-${id.slice(3)}`,
    creator_id: creatorId,
    is_new: false,
    is_featured: false,
    total_views: 0,
    views_7d: 0,
    seasons: Array.from({ length: EPISODES / PER_SEASON }, (_, s) => ({
      number: s + 1,
      title: `Season ${s + 1}`,
    })),
  };
  await batchPut([
    { ...showItem({ ...show, episode_tally: tallyOf(episodes) }), version: 1 },
    ...episodes.map((e) => ({ ...episodeItem(e), version: 1 })),
  ]);
}, 60_000);

describe('a show detail over 6 MB', () => {
  it('is sent gzip-compressed to a caller that accepts gzip', async () => {
    const res = await fetch(`${api.url}/tv/v3/shows/${show.id}`, { headers: { 'accept-encoding': 'gzip' } });
    expect(res.status).toBe(200);
    // fetch decompresses; the header says how it came.
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(res.headers.get('vary')).toBe('accept-encoding');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const text = await res.text();
    expect(text.length).toBeGreaterThan(6 * 1024 * 1024);
    const { data } = JSON.parse(text);
    expect(data.seasons.flatMap((s: { episodes: unknown[] }) => s.episodes)).toHaveLength(EPISODES);
  });

  it('is a clear 500 in the error envelope for a caller that does not', async () => {
    for (const acceptEncoding of ['identity', 'gzip;q=0, br']) {
      const res = await api.get(`/shows/${show.id}`, { headers: { 'accept-encoding': acceptEncoding } });
      expect(res.status).toBe(500);
      expect(res.body).toEqual({
        status: 'error',
        code: 500,
        message: 'The answer is over 6 MB uncompressed: ask again with Accept-Encoding: gzip',
      });
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    }
  });
});
