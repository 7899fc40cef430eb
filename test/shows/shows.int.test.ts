import { beforeAll, describe, expect, it } from 'vitest';
import { CATEGORY_IDS, RATING_IDS, type ShowRecord } from '../../shared/catalog/model.ts';
import { generateCatalog } from '../../scripts/seed/generate.ts';
import { dynamoCalls, type TestApi, testApi } from '../support/api.ts';

let api: TestApi;
beforeAll(async () => {
  api = await testApi();
});

const FORMATTED = /^\d+(\.\d)?[KMB]?$/;

/** Summary fields shared by every show list item (the key name differs per endpoint). */
const expectSummary = (s: any) => {
  expect(s).toMatchObject({
    title: expect.any(String),
    thumbnail_url: expect.stringMatching(/^https?:\/\//),
    category: expect.toBeOneOf([...CATEGORY_IDS]),
    creator: {
      id: expect.stringMatching(/^(cr|acc)_/),
      name: expect.any(String),
      is_verified: expect.any(Boolean),
    },
    seasons: expect.any(Number),
    rating: expect.toBeOneOf([...RATING_IDS]),
    tags: expect.any(Array),
    is_new: expect.any(Boolean),
    is_featured: expect.any(Boolean),
    channel_url: expect.stringMatching(/^\/shows\/[a-z0-9_-]+$/),
  });
  expect(s.creator.name.length).toBeGreaterThan(0);
  expect(Number.isInteger(s.seasons)).toBe(true);
};

const ids = (res: any) => res.body.data.shows.map((s: any) => s.id);
const everyShow = async (query = '') => {
  const res = await api.get(`/shows?limit=100${query}`);
  const all = [...res.body.data.shows];
  for (let page = 2; page <= res.body.meta_data.total_pages; page++)
    all.push(...(await api.get(`/shows?limit=100&page=${page}${query}`)).body.data.shows);
  return all;
};

describe('GET /shows', () => {
  it('lists shows with the spec shape, defaults and filters_applied with unset filters null', async () => {
    const res = await api.get('/shows');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('success');
    expect(res.body.meta_data).toMatchObject({
      page: 1,
      limit: 20,
      filters_applied: {
        category: 'all',
        sort: 'most_popular',
        section: 'all',
        rating: null,
        is_new: null,
        is_featured: null,
      },
    });
    const { total } = res.body.meta_data;
    expect(total).toBeGreaterThan(20);
    expect(res.body.meta_data.total_pages).toBe(Math.ceil(total / 20));
    expect(res.body.data.shows).toHaveLength(20);
    for (const s of res.body.data.shows) {
      expectSummary(s);
      expect(s.id).toMatch(/^sh_/);
      expect(s).not.toHaveProperty('show_id');
      expect(s.thumbnail_color).toMatch(/^#[0-9A-Fa-f]{6}$/);
      expect(s.total_views_formatted).toMatch(FORMATTED);
    }
    const views = res.body.data.shows.map((s: any) => s.total_views);
    expect(views).toEqual([...views].sort((a, b) => b - a));
  });

  it('filters by each category, and the category totals add up to the whole catalogue', async () => {
    const all = (await api.get('/shows?limit=1')).body.meta_data.total;
    let sum = 0;
    for (const category of CATEGORY_IDS) {
      const res = await api.get(`/shows?category=${category}&limit=100`);
      expect(res.status).toBe(200);
      expect(res.body.meta_data.filters_applied.category).toBe(category);
      for (const s of res.body.data.shows) expect(s.category).toBe(category);
      sum += res.body.meta_data.total;
    }
    expect(sum).toBe(all);
  });

  it('filters by rating', async () => {
    for (const rating of RATING_IDS) {
      const res = await api.get(`/shows?rating=${rating}&limit=100`);
      expect(res.status).toBe(200);
      expect(res.body.meta_data.filters_applied.rating).toBe(rating);
      for (const s of res.body.data.shows) expect(s.rating).toBe(rating);
    }
    expect((await api.get('/shows?rating=R')).status).toBe(400);
  });

  it('filters by is_new and is_featured (true and false) and by section', async () => {
    const all = await everyShow();
    const count = (pred: (s: any) => boolean) => all.filter(pred).length;
    const cases: Array<[string, (s: any) => boolean]> = [
      ['is_new=true', (s) => s.is_new],
      ['is_new=false', (s) => !s.is_new],
      ['is_featured=true', (s) => s.is_featured],
      ['is_featured=false', (s) => !s.is_featured],
      ['section=new_releases', (s) => s.is_new],
      ['section=featured', (s) => s.is_featured],
      ['section=all', () => true],
      ['is_new=true&is_featured=true', (s) => s.is_new && s.is_featured],
    ];
    expect(count((s) => s.is_new)).toBeGreaterThan(0);
    expect(count((s) => s.is_featured)).toBeGreaterThan(0);
    for (const [query, pred] of cases) {
      const res = await api.get(`/shows?${query}&limit=100`);
      expect(res.status, query).toBe(200);
      expect(res.body.meta_data.total, query).toBe(count(pred));
      for (const s of res.body.data.shows) expect(pred(s), query).toBe(true);
    }
    const echoed = await api.get('/shows?is_new=false&is_featured=true&section=featured');
    expect(echoed.body.meta_data.filters_applied).toMatchObject({
      section: 'featured',
      is_new: false,
      is_featured: true,
    });
    const contradiction = await api.get('/shows?section=new_releases&is_new=false');
    expect(contradiction.status).toBe(200);
    expect(contradiction.body.data.shows).toEqual([]);
    expect(contradiction.body.meta_data.total).toBe(0);
    expect((await api.get('/shows?is_new=maybe')).status).toBe(400);
    expect((await api.get('/shows?section=old')).status).toBe(400);
  });

  it('combines filters', async () => {
    const res = await api.get('/shows?category=comedy&rating=TV-14&is_new=false&sort=newest&limit=100');
    expect(res.status).toBe(200);
    for (const s of res.body.data.shows) {
      expect(s).toMatchObject({ category: 'comedy', rating: 'TV-14', is_new: false });
    }
  });

  it('sorts by most_popular (total views), newest (release date) and trending (7-day views)', async () => {
    // The catalogue's shows keep their relative order; shows other tests publish meanwhile (the
    // studio, and every broadcast they stop: its recording joins the creator's Live show) may
    // join the lists, newest first, so a page of 100 and only the catalogue's ids are compared.
    const catalog = generateCatalog({ now: api.seededAt, seed: 42 });
    const seeded = new Set(catalog.shows.map((s) => s.id));
    const expectOrder = (res: any, order: (a: ShowRecord, b: ShowRecord) => number) => {
      const got = ids(res).filter((id: string) => seeded.has(id));
      expect(got.length).toBeGreaterThan(30);
      expect(got).toEqual(
        [...catalog.shows]
          .sort(order)
          .slice(0, got.length)
          .map((s) => s.id),
      );
    };
    const popular = await api.get('/shows?sort=most_popular&limit=100');
    const views = popular.body.data.shows.map((s: any) => s.total_views);
    expect(views).toEqual([...views].sort((a, b) => b - a));
    expectOrder(popular, (a, b) => b.total_views - a.total_views || a.id.localeCompare(b.id));
    const newest = await api.get('/shows?sort=newest&limit=100');
    expect(newest.body.meta_data.filters_applied.sort).toBe('newest');
    expectOrder(newest, (a, b) => b.released_at.localeCompare(a.released_at) || a.id.localeCompare(b.id));
    const trending = await api.get('/shows?sort=trending&limit=100');
    expect(trending.body.meta_data.filters_applied.sort).toBe('trending');
    expectOrder(trending, (a, b) => b.views_7d - a.views_7d || a.id.localeCompare(b.id));
    expect(ids(trending)).not.toEqual(ids(popular));
    expect((await api.get('/shows?sort=alphabetical')).status).toBe(400);
  });

  it('pages without overlap, answers an empty page past the end and rejects bad limits', async () => {
    const first = await api.get('/shows?limit=7&page=1');
    const second = await api.get('/shows?limit=7&page=2');
    expect(ids(first)).toHaveLength(7);
    expect(ids(first).filter((id: string) => ids(second).includes(id))).toEqual([]);
    const past = await api.get(`/shows?limit=7&page=${first.body.meta_data.total_pages + 1}`);
    expect(past.status).toBe(200);
    expect(past.body.data.shows).toEqual([]);
    expect(past.body.meta_data.total).toBe(first.body.meta_data.total);
    for (const q of ['limit=0', 'limit=101', 'limit=abc', 'page=0', 'page=-1']) {
      const res = await api.get(`/shows?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.body).toMatchObject({ status: 'error', code: 400 });
    }
    expect((await api.get('/shows?limit=100')).body.data.shows.length).toBeLessThanOrEqual(100);
  });

  it('costs the same number of DynamoDB calls for page 1 and a deep page', async () => {
    dynamoCalls.length = 0;
    await api.get('/shows?limit=5&page=1');
    const shallow = dynamoCalls.length;
    dynamoCalls.length = 0;
    await api.get('/shows?limit=5&page=6');
    expect(dynamoCalls.length).toBe(shallow);
    expect(dynamoCalls).not.toContain('ScanCommand');
  });
});

describe('GET /shows/new-releases and /shows/featured', () => {
  it('lists new releases newest first with section meta_data', async () => {
    const res = await api.get('/shows/new-releases');
    expect(res.status).toBe(200);
    expect(res.body.meta_data).toMatchObject({
      section: 'new_releases',
      section_title: expect.any(String),
      section_subtitle: expect.any(String),
      page: 1,
      limit: 10,
    });
    // Both counts come from one list; a show published in between by another test is allowed for.
    expect(
      Math.abs(res.body.meta_data.total - (await api.get('/shows?is_new=true')).body.meta_data.total),
    ).toBeLessThanOrEqual(1);
    for (const s of res.body.data.shows) {
      expectSummary(s);
      expect(s.id).toMatch(/^sh_/);
      expect(s.is_new).toBe(true);
    }
    const comedy = await api.get('/shows/new-releases?category=comedy&limit=100');
    for (const s of comedy.body.data.shows) expect(s.category).toBe('comedy');
    const past = await api.get(`/shows/new-releases?page=${res.body.meta_data.total_pages + 1}`);
    expect(past.status).toBe(200);
    expect(past.body.data.shows).toEqual([]);
    expect((await api.get('/shows/new-releases?limit=101')).status).toBe(400);
  });

  it('lists featured shows keeping data.total and adding meta_data', async () => {
    const res = await api.get('/shows/featured');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      section_title: expect.any(String),
      section_subtitle: expect.any(String),
      total: expect.any(Number),
    });
    expect(res.body.meta_data).toEqual({
      total: res.body.data.total,
      page: 1,
      limit: 10,
      total_pages: Math.ceil(res.body.data.total / 10),
    });
    expect(res.body.data.total).toBe((await api.get('/shows?is_featured=true')).body.meta_data.total);
    for (const s of res.body.data.shows) {
      expectSummary(s);
      expect(s.show_id).toMatch(/^sh_/);
      expect(s).not.toHaveProperty('id');
      expect(s.is_featured).toBe(true);
    }
    const music = await api.get('/shows/featured?category=music&limit=100');
    for (const s of music.body.data.shows) expect(s.category).toBe('music');
    const past = await api.get(`/shows/featured?page=${res.body.meta_data.total_pages + 1}`);
    expect(past.status).toBe(200);
    expect(past.body.data.shows).toEqual([]);
    expect((await api.get('/shows/featured?limit=0')).status).toBe(400);
  });
});

describe('GET /shows/search', () => {
  it('answers 400 without q', async () => {
    const res = await api.get('/shows/search');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 'error', code: 400 });
    expect(res.body.message).toContain('q');
    expect((await api.get('/shows/search?q=%20')).status).toBe(400);
  });

  it('finds a show case- and accent-insensitively, by word prefix and with one typo; exact first', async () => {
    const shows = (await api.get('/shows?limit=100')).body.data.shows;
    const target = shows.find((s: any) => s.title.split(' ').some((w: string) => /^[A-Za-z]{5,}$/.test(w)));
    expect(target).toBeDefined();
    const word: string = target.title.split(' ').find((w: string) => /^[A-Za-z]{5,}$/.test(w));
    const typo = word.slice(0, 2) + word.slice(3);
    for (const q of [
      target.title.toUpperCase(),
      word.slice(0, 3).toLowerCase(),
      word.replace(/[aeiou]/i, (v) => ({ a: 'á', e: 'é', i: 'í', o: 'ó', u: 'ú' })[v.toLowerCase()]!),
      typo,
    ]) {
      const res = await api.get(`/shows/search?q=${encodeURIComponent(q)}&limit=100`);
      expect(res.status, q).toBe(200);
      expect(res.body.meta_data).toMatchObject({ query: q, type: 'shows', page: 1, limit: 100 });
      expect(
        res.body.data.shows.map((s: any) => s.id),
        q,
      ).toContain(target.id);
    }
    const exact = await api.get(`/shows/search?q=${encodeURIComponent(target.title)}`);
    expect(exact.body.data.shows[0].title.toLowerCase()).toBe(target.title.toLowerCase());
    const item = exact.body.data.shows[0];
    expectSummary(item);
    expect(item.id).toMatch(/^sh_/);
    expect(item).not.toHaveProperty('thumbnail_color');
    // Served from the index items' cards (its creator's name included), it is the list's item
    // without thumbnail_color.
    const { thumbnail_color: _c, ...listed } = target;
    expect(item).toEqual(listed);
  });

  it('applies category, rating, is_new and is_featured filters and sorts', async () => {
    const letter = 'a';
    const base = await api.get(`/shows/search?q=${letter}&limit=100`);
    expect(base.status).toBe(200);
    for (const [query, pred] of [
      ['category=music', (s: any) => s.category === 'music'],
      ['rating=TV-PG', (s: any) => s.rating === 'TV-PG'],
      ['is_new=true', (s: any) => s.is_new],
      ['is_featured=false', (s: any) => !s.is_featured],
    ] as const) {
      const res = await api.get(`/shows/search?q=${letter}&${query}&limit=100`);
      expect(res.status, query).toBe(200);
      for (const s of res.body.data.shows) expect(pred(s), query).toBe(true);
    }
    const popular = await api.get(`/shows/search?q=${letter}&sort=most_popular&limit=100`);
    const views = popular.body.data.shows.map((s: any) => s.total_views);
    expect(views).toEqual([...views].sort((a, b) => b - a));
    expect((await api.get(`/shows/search?q=${letter}&sort=newest`)).status).toBe(200);
    expect((await api.get(`/shows/search?q=${letter}&sort=trending`)).status).toBe(200);
    expect((await api.get(`/shows/search?q=${letter}&sort=bogus`)).status).toBe(400);
  });

  it('returns an empty page for nonsense and past the end', async () => {
    const none = await api.get('/shows/search?q=zzzzqqqxx');
    expect(none.status).toBe(200);
    expect(none.body.data.shows).toEqual([]);
    expect(none.body.meta_data).toMatchObject({ total: 0, total_pages: 0, total_relation: 'eq' });
    const broad = await api.get('/shows/search?q=s&limit=3');
    expect(broad.body.meta_data).toMatchObject({ total_relation: 'gte', limit: 3 });
    expect(broad.body.meta_data.total).toBeGreaterThan(3);
    const past = await api.get('/shows/search?q=a&page=9999');
    expect(past.status).toBe(200);
    expect(past.body.data.shows).toEqual([]);
    expect((await api.get('/shows/search?q=a&limit=101')).status).toBe(400);
  });
});

describe('GET /shows/categories and /shows/ratings', () => {
  it('lists every category with its show count (0 allowed)', async () => {
    const res = await api.get('/shows/categories');
    expect(res.status).toBe(200);
    const categories = res.body.data.categories;
    expect(categories.map((c: any) => c.id)).toEqual([...CATEGORY_IDS]);
    for (const c of categories) {
      expect(c).toEqual({
        id: c.id,
        label: expect.any(String),
        icon: expect.any(String),
        show_count: expect.any(Number),
      });
      expect(c.show_count).toBe((await api.get(`/shows?category=${c.id}&limit=1`)).body.meta_data.total);
    }
  });

  it('lists the four ratings with id, label and description', async () => {
    const res = await api.get('/shows/ratings');
    expect(res.status).toBe(200);
    expect(res.body.data.ratings.map((r: any) => r.id)).toEqual([...RATING_IDS]);
    for (const r of res.body.data.ratings)
      expect(Object.keys(r).sort()).toEqual(['description', 'id', 'label']);
  });
});

describe('GET /shows/categories-top', () => {
  it('lists categories with shows, their counts and top shows keyed show_id', async () => {
    const res = await api.get('/shows/categories-top');
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeGreaterThan(0);
    const counts = await api.get('/shows/categories');
    for (const entry of res.body.data) {
      expect(entry).toEqual({
        id: expect.toBeOneOf([...CATEGORY_IDS]),
        label: expect.any(String),
        show_count: expect.any(Number),
        creators_count: expect.any(Number),
        emoji: expect.any(String),
        thump_url: entry.thump_url === null ? null : expect.stringMatching(/^https?:\/\//),
        bg_color: expect.stringMatching(/^#[0-9A-Fa-f]{6}$/),
        shows: expect.any(Array),
      });
      expect(entry.show_count).toBe(
        counts.body.data.categories.find((c: any) => c.id === entry.id).show_count,
      );
      expect(entry.shows.length).toBeGreaterThan(0);
      for (const s of entry.shows) {
        expect(Object.keys(s).sort()).toEqual(
          [
            'category',
            'is_featured',
            'is_new',
            'rating',
            'seasons',
            'show_id',
            'title',
            'total_views_formatted',
          ].sort(),
        );
        expect(s.category).toBe(entry.id);
      }
    }
    const totals = res.body.data.map((e: any) => e.show_count);
    expect(totals).toEqual([...totals].sort((a, b) => b - a));
  });
});

describe('GET /shows/episodes/most-viewed', () => {
  it('lists episodes by views with total_live and the standard pagination', async () => {
    const res = await api.get('/shows/episodes/most-viewed');
    expect(res.status).toBe(200);
    expect(res.body.meta_data).toMatchObject({ page: 1, limit: 10, total_live: res.body.meta_data.total });
    expect(res.body.data).toHaveLength(10);
    for (const e of res.body.data) {
      expect(e).toMatchObject({
        episode_id: expect.any(String),
        episode_number: expect.any(Number),
        season: expect.any(Number),
        title: expect.any(String),
        duration_formatted: expect.stringMatching(/^(\d+:)?\d{2}:\d{2}$/),
        views_formatted: expect.stringMatching(FORMATTED),
        is_free: expect.any(Boolean),
        is_locked: !e.is_free,
        stream_url: e.is_free ? expect.stringMatching(/^https?:\/\//) : null,
      });
      expect(e).toHaveProperty('thumb_url');
    }
    const views = res.body.data.map((e: any) => e.views);
    expect(views).toEqual([...views].sort((a, b) => b - a));
  });

  it('filters by category, pages and rejects bad limits', async () => {
    const res = await api.get('/shows/episodes/most-viewed?category=gaming&limit=20');
    expect(res.status).toBe(200);
    for (const e of res.body.data) {
      const show = await api.get(`/shows/${e.show_id}`);
      expect(show.body.data.category).toBe('gaming');
    }
    const all = (await api.get('/shows/episodes/most-viewed')).body.meta_data.total;
    expect(res.body.meta_data.total).toBeLessThan(all);
    const p1 = await api.get('/shows/episodes/most-viewed?limit=5&page=1');
    const p2 = await api.get('/shows/episodes/most-viewed?limit=5&page=2');
    const ids1 = p1.body.data.map((e: any) => e.episode_id);
    expect(p2.body.data.map((e: any) => e.episode_id).filter((id: string) => ids1.includes(id))).toEqual([]);
    expect(p1.body.data[4].views).toBeGreaterThanOrEqual(p2.body.data[0].views);
    const past = await api.get(`/shows/episodes/most-viewed?limit=100&page=${Math.ceil(all / 100) + 1}`);
    expect(past.status).toBe(200);
    expect(past.body.data).toEqual([]);
    expect((await api.get('/shows/episodes/most-viewed?limit=101')).status).toBe(400);
    expect((await api.get('/shows/episodes/most-viewed?category=cooking')).status).toBe(400);
  });
});
