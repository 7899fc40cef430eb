import { beforeAll, describe, expect, it } from 'vitest';
import type { Catalog, ShowRecord } from '../../shared/catalog/model.ts';
import { generateCatalog } from '../../scripts/seed/generate.ts';
import { type TestApi, testApi } from '../support/api.ts';

let api: TestApi;
let catalog: Catalog;
beforeAll(async () => {
  api = await testApi();
  catalog = generateCatalog({ now: api.seededAt, seed: 42 });
});

const episodesOf = (show: ShowRecord) => catalog.episodes.filter((e) => e.show_id === show.id);
/** A show whose episodes include each of the given access kinds. */
const showWith = (...access: string[]) => {
  const show = catalog.shows.find((s) => access.every((a) => episodesOf(s).some((e) => e.access === a)));
  if (!show) throw new Error(`demo catalogue has no show with ${access.join('+')} episodes`);
  return show;
};

describe('GET /shows/{id}', () => {
  it('returns the show detail keyed show_id with every episode in season order', async () => {
    const show = showWith('free', 'premium');
    const res = await api.get(`/shows/${show.id}`);
    expect(res.status).toBe(200);
    const d = res.body.data;
    expect(d).toMatchObject({
      show_id: show.id,
      title: show.title,
      description: show.description,
      category: show.category,
      rating: show.rating,
      seasons: show.seasons.length,
      channel_url: `/shows/${show.slug}`,
      creator: {
        id: show.creator_id,
        name: expect.any(String),
        is_verified: expect.any(Boolean),
        channel_url: expect.stringMatching(/^\/creators\/[a-z0-9_]+$/),
      },
    });
    expect(d).not.toHaveProperty('id');
    expect(d.creator).toHaveProperty('avatar_url');
    const expected = episodesOf(show).sort(
      (a, b) => a.season - b.season || a.episode_number - b.episode_number,
    );
    expect(d.episodes.map((e: any) => e.episode_id)).toEqual(expected.map((e) => e.id));
    for (const e of d.episodes) {
      expect(e).toEqual({
        episode_id: expect.any(String),
        season: expect.any(Number),
        episode_number: expect.any(Number),
        title: expect.any(String),
        duration_seconds: expect.any(Number),
        duration_formatted: expect.stringMatching(/^(\d+:)?\d{2}:\d{2}$/),
        views: expect.any(Number),
        views_formatted: expect.any(String),
        is_free: expect.any(Boolean),
        is_premium: !e.is_free,
        // Anonymous caller: only free episodes are playable (issue 14, paywall bypass).
        is_locked: !e.is_free,
        stream_url: e.is_free ? expect.stringMatching(/^https?:\/\//) : null,
        air_date: expect.any(String),
        thumbnail_url: expect.stringMatching(/^https?:\/\//),
      });
    }
  });

  it('accepts the channel_url slug', async () => {
    const show = catalog.shows[0]!;
    const res = await api.get(`/shows/${show.slug}`);
    expect(res.status).toBe(200);
    expect(res.body.data.show_id).toBe(show.id);
  });

  it('answers 404 with the error envelope for an unknown show', async () => {
    for (const id of ['sh_doesnotexist', 'no-such-show']) {
      const res = await api.get(`/shows/${id}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ status: 'error', code: 404, message: 'Show not found' });
    }
  });
});

describe('GET /tv/v3/shows/{id}', () => {
  it('nests episodes in seasons with a lock state and gating_context (anonymous viewer)', async () => {
    const show = showWith('free', 'premium');
    const res = await api.get(`/tv/v3/shows/${show.id}`);
    expect(res.status).toBe(200);
    const d = res.body.data;
    expect(d.show_id).toBe(show.id);
    expect(d.seasons_count).toBe(show.seasons.length);
    expect(d.episodes_count).toBe(episodesOf(show).length);
    expect(d.seasons.map((s: any) => s.number)).toEqual(
      show.seasons.map((s) => s.number).sort((a, b) => a - b),
    );
    const creator = catalog.creators.find((c) => c.id === show.creator_id)!;
    let free = 0;
    let premium = 0;
    for (const season of d.seasons) {
      expect(season).toMatchObject({ id: `${show.id}_s${season.number}`, title: expect.any(String) });
      for (const e of season.episodes) {
        expect(e.season).toBe(season.number);
        expect(e).toMatchObject({
          duration_formatted: expect.any(String),
          thumbnail_url: expect.stringMatching(/^https?:\/\//),
          is_locked: expect.any(Boolean),
        });
        if (e.is_free) {
          free++;
          expect(e.is_locked).toBe(false);
          expect(e.stream_url).toMatch(/^https?:\/\//);
          expect(e.gating_context).toMatchObject({
            access: 'free',
            is_locked: false,
            required_action: null,
            price: null,
          });
        } else if (e.access === 'premium') {
          premium++;
          expect(e.is_locked).toBe(true);
          expect(e.stream_url).toBeNull();
          expect(e.gating_context).toEqual({
            access: 'subscription',
            is_locked: true,
            required_action: 'subscribe',
            price: creator.plan.price,
            currency: creator.plan.currency,
            billing_interval: creator.plan.interval,
            creator_id: creator.id,
          });
        }
      }
    }
    expect(free).toBeGreaterThan(0);
    expect(premium).toBeGreaterThan(0);
  });

  it('prices pay-per-view episodes', async () => {
    const ppv = catalog.episodes.find((e) => e.access === 'ppv');
    expect(ppv).toBeDefined();
    const res = await api.get(`/tv/v3/shows/${ppv!.show_id}`);
    const e = res.body.data.seasons
      .flatMap((s: any) => s.episodes)
      .find((x: any) => x.episode_id === ppv!.id);
    expect(e.is_locked).toBe(true);
    expect(e.gating_context).toMatchObject({
      access: 'ppv',
      required_action: 'purchase',
      price: ppv!.price,
      currency: ppv!.currency,
    });
  });

  it('answers 404 for an unknown show', async () => {
    const res = await api.get('/tv/v3/shows/sh_nope');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe(404);
  });
});

describe('GET /tv/v3/creators/{id}/series', () => {
  const creatorWithShows = () => {
    const counts = new Map<string, number>();
    for (const s of catalog.shows) counts.set(s.creator_id, (counts.get(s.creator_id) ?? 0) + 1);
    const [id, count] = [...counts].sort((a, b) => b[1] - a[1])[0]!;
    return { creator: catalog.creators.find((c) => c.id === id)!, count };
  };

  it('pages a creator series with meta_data and data.items, seasons holding episodes', async () => {
    const { creator, count } = creatorWithShows();
    const res = await api.get(`/tv/v3/creators/${creator.id}/series`);
    expect(res.status).toBe(200);
    expect(res.body.meta_data).toEqual({
      total: count,
      page: 1,
      limit: 10,
      total_pages: Math.ceil(count / 10),
    });
    expect(Object.keys(res.body.data)).toEqual(['items']);
    for (const item of res.body.data.items) {
      const show = catalog.shows.find((s) => s.id === item.id)!;
      expect(show.creator_id).toBe(creator.id);
      const episodes = episodesOf(show);
      expect(item).toMatchObject({
        title: show.title,
        rating: show.rating,
        seasons_count: show.seasons.length,
        episodes_count: episodes.length,
      });
      expect(item.access_badges).toEqual(
        ['free', 'premium', 'ppv'].filter((a) => episodes.some((e) => e.access === a)),
      );
      expect(item.seasons.map((s: any) => Object.keys(s).sort())).toEqual(
        item.seasons.map(() => ['episodes', 'id', 'number', 'title']),
      );
      const nested = item.seasons.flatMap((s: any) => s.episodes);
      expect(nested).toHaveLength(episodes.length);
      for (const e of nested) {
        expect(e).toMatchObject({
          episode_id: expect.any(String),
          duration_formatted: expect.any(String),
          thumbnail_url: expect.any(String),
          views_formatted: expect.any(String),
          air_date: expect.any(String),
          is_locked: expect.any(Boolean),
          gating_context: expect.any(Object),
        });
      }
    }
    const views = res.body.data.items.map((i: any) => i.total_views);
    expect(views).toEqual([...views].sort((a, b) => b - a));
  });

  it('pages with limit, ends with an empty page, and rejects bad limits', async () => {
    const { creator, count } = creatorWithShows();
    const one = await api.get(`/tv/v3/creators/${creator.id}/series?limit=1&page=1`);
    expect(one.body.data.items).toHaveLength(1);
    expect(one.body.meta_data.total_pages).toBe(count);
    const past = await api.get(`/tv/v3/creators/${creator.id}/series?limit=1&page=${count + 1}`);
    expect(past.status).toBe(200);
    expect(past.body.data.items).toEqual([]);
    expect((await api.get(`/tv/v3/creators/${creator.id}/series?limit=101`)).status).toBe(400);
    expect((await api.get(`/tv/v3/creators/${creator.slug}/series`)).body.meta_data.total).toBe(count);
  });

  it('answers 404 for an unknown creator', async () => {
    const res = await api.get('/tv/v3/creators/cr_nobody/series');
    expect(res.status).toBe(404);
  });
});
