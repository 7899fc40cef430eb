import { beforeAll, describe, expect, it } from 'vitest';
import { CATEGORY_IDS, TIER_IDS } from '../../shared/catalog/model.ts';
import { issueAccessToken } from '../../shared/identity/access-token.ts';
import { DEMO_VIEWER, GATED_LIVE_CREATOR_ID } from '../../scripts/seed/generate.ts';
import { type TestApi, testApi } from '../support/api.ts';
import { waitFor } from '../support/wait.ts';

let api: TestApi;
beforeAll(async () => {
  api = await testApi();
});

const FORMATTED = /^\d+(\.\d)?[KMB]?$/;

const expectCreatorSummary = (c: any) => {
  expect(c).toEqual({
    id: expect.stringMatching(/^(cr|acc)_/),
    name: expect.any(String),
    initials: expect.stringMatching(/^[A-Z]{1,3}$/),
    avatar_color: expect.stringMatching(/^#[0-9A-Fa-f]{6}$/),
    avatar_url: c.avatar_url === null ? null : expect.stringMatching(/^https:\/\//),
    tier: expect.toBeOneOf([...TIER_IDS]),
    category: expect.toBeOneOf([...CATEGORY_IDS]),
    subscribers: expect.any(Number),
    subscribers_formatted: expect.stringMatching(FORMATTED),
    is_live: expect.any(Boolean),
    is_verified: expect.any(Boolean),
    is_hot: expect.any(Boolean),
    watching_now: expect.any(Number),
    watching_now_formatted: expect.stringMatching(FORMATTED),
    channel_url: expect.stringMatching(/^\/creators\/[a-z0-9_]+$/),
  });
  expect(Number.isInteger(c.subscribers)).toBe(true);
};

describe('GET /creators', () => {
  it('lists creators with the spec shape, defaults and filters_applied', async () => {
    const res = await api.get('/creators');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('success');
    expect(res.body.meta_data).toMatchObject({
      page: 1,
      limit: 20,
      filters_applied: { category: 'all', tier: 'all', sort: 'most_popular' },
    });
    expect(res.body.meta_data.total).toBeGreaterThanOrEqual(200);
    expect(res.body.meta_data.total_pages).toBe(Math.ceil(res.body.meta_data.total / 20));
    expect(res.body.data.creators).toHaveLength(20);
    for (const c of res.body.data.creators) expectCreatorSummary(c);
    const subs = res.body.data.creators.map((c: any) => c.subscribers);
    expect(subs).toEqual([...subs].sort((a, b) => b - a));
  });

  it('filters by category and tier, and totals match the filter', async () => {
    const res = await api.get('/creators?category=comedy&tier=gold&limit=100');
    expect(res.status).toBe(200);
    expect(res.body.meta_data.filters_applied).toEqual({
      category: 'comedy',
      tier: 'gold',
      sort: 'most_popular',
    });
    expect(res.body.data.creators.length).toBe(Math.min(100, res.body.meta_data.total));
    for (const c of res.body.data.creators) {
      expect(c.category).toBe('comedy');
      expect(c.tier).toBe('gold');
    }
  });

  it('pages through a category without overlap and ends with an empty page', async () => {
    const first = await api.get('/creators?category=music&limit=7&page=1');
    const second = await api.get('/creators?category=music&limit=7&page=2');
    const ids1 = first.body.data.creators.map((c: any) => c.id);
    const ids2 = second.body.data.creators.map((c: any) => c.id);
    expect(ids1).toHaveLength(7);
    expect(ids1.filter((id: string) => ids2.includes(id))).toEqual([]);
    const past = await api.get(
      `/creators?category=music&limit=7&page=${first.body.meta_data.total_pages + 1}`,
    );
    expect(past.status).toBe(200);
    expect(past.body.data.creators).toEqual([]);
    // At least: a creator another test onboards in between joins the category.
    expect(past.body.meta_data.total).toBeGreaterThanOrEqual(first.body.meta_data.total);
  });

  it('sorts by newest and trending', async () => {
    const newest = await api.get('/creators?sort=newest&limit=50');
    expect(newest.body.meta_data.filters_applied.sort).toBe('newest');
    expect(newest.body.data.creators).toHaveLength(50);
    const trending = await api.get('/creators?sort=trending&limit=50');
    expect(trending.body.data.creators.map((c: any) => c.id)).not.toEqual(
      newest.body.data.creators.map((c: any) => c.id),
    );
  });

  it('answers 400 listing the allowed categories for an invalid category', async () => {
    const res = await api.get('/creators?category=cooking');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 'error', code: 400 });
    for (const id of CATEGORY_IDS) expect(res.body.message).toContain(id);
  });

  it('answers 400 for a limit past the maximum page size or below 1', async () => {
    expect((await api.get('/creators?limit=101')).status).toBe(400);
    expect((await api.get('/creators?limit=0')).status).toBe(400);
    expect((await api.get('/creators?limit=100')).status).toBe(200);
    expect((await api.get('/creators?tier=bronze')).status).toBe(400);
    expect((await api.get('/creators?sort=random')).status).toBe(400);
  });
});

describe('GET /creators/live and /creators/featured', () => {
  it('lists live creators with their stream, the standard pagination and total_live', async () => {
    const res = await api.get('/creators/live');
    expect(res.status).toBe(200);
    const { total } = res.body.meta_data;
    expect(total).toBeGreaterThan(40);
    expect(res.body.meta_data).toEqual({
      total,
      total_live: total,
      page: 1,
      limit: 10,
      total_pages: Math.ceil(total / 10),
    });
    // Other test files make creators live meanwhile: the last page is checked against its own total.
    const last = await api.get(`/creators/live?page=${Math.ceil(total / 10)}`);
    const lastTotal = last.body.meta_data.total;
    expect(last.body.data.creators.length).toBe(
      Math.max(0, Math.min(10, lastTotal - (Math.ceil(total / 10) - 1) * 10)),
    );
    const c = res.body.data.creators[0];
    expect(c.is_live).toBe(true);
    expect(c).not.toHaveProperty('category');
    expect(c).not.toHaveProperty('subscribers');
    expect(c).not.toHaveProperty('is_hot');
    expect(c.stream).toEqual({
      stream_id: expect.any(String),
      title: expect.any(String),
      started_at: expect.any(String),
      thumbnail_url: expect.any(String),
    });
    // Most watched first. The counts are the creators' own; their places follow once the projector
    // ran (about a second after the minute's audience publication), so a page read in between may
    // be out of order: the order must settle.
    await waitFor(async () => {
      const watching = (await api.get('/creators/live')).body.data.creators.map((x: any) => x.watching_now);
      return watching.every((n: number, i: number) => i === 0 || watching[i - 1] >= n);
    }, 'the live list in watching order');
  });

  it('lists featured creators with the /creators shape', async () => {
    const res = await api.get('/creators/featured?limit=5');
    expect(res.status).toBe(200);
    expect(res.body.data.creators).toHaveLength(5);
    for (const c of res.body.data.creators) expectCreatorSummary(c);
    expect(res.body.meta_data).toMatchObject({ page: 1, limit: 5 });
  });
});

describe('GET /creators/search', () => {
  it('answers 400 without q', async () => {
    const res = await api.get('/creators/search');
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('q');
    expect((await api.get('/creators/search?q=%20%20')).status).toBe(400);
  });

  it('finds a creator by name case- and accent-insensitively, by prefix and with one typo', async () => {
    const top = (await api.get('/creators?limit=1')).body.data.creators[0];
    const [firstWord] = top.name.split(' ');
    const variants = [
      top.name.toUpperCase(),
      firstWord.normalize('NFD').slice(0, 3),
      top.name.replace(/e/, 'é'),
    ];
    if (firstWord.length >= 5) variants.push(firstWord.slice(0, 2) + firstWord.slice(3));
    for (const q of variants) {
      const res = await api.get(`/creators/search?q=${encodeURIComponent(q)}&limit=100`);
      expect(res.status, q).toBe(200);
      expect(res.body.meta_data.query).toBe(q);
      expect(
        res.body.data.creators.map((c: any) => c.id),
        q,
      ).toContain(top.id);
    }
    const exact = await api.get(`/creators/search?q=${encodeURIComponent(top.name)}`);
    expect(exact.body.data.creators[0].id).toBe(top.id);
    const item = exact.body.data.creators[0];
    expect(item).not.toHaveProperty('is_hot');
    expect(item).not.toHaveProperty('watching_now');
    expect(item).not.toHaveProperty('watching_now_formatted');
    // Served from the index items' cards, it is the list's summary without those three fields.
    const { is_hot: _h, watching_now: _w, watching_now_formatted: _wf, ...listed } = top;
    expect(item).toEqual(listed);
  });

  it('returns an empty page for nonsense and filters by category', async () => {
    const none = await api.get('/creators/search?q=zzzzqqqxx');
    expect(none.status).toBe(200);
    expect(none.body.data.creators).toEqual([]);
    expect(none.body.meta_data).toMatchObject({ total: 0, total_pages: 0, total_relation: 'eq' });
  });

  it('bounds the total: a query matching more than it reads says total_relation gte', async () => {
    // Every creator with a word starting with "a": far more than a page of 5 reads (6 per lookup).
    const broad = await api.get('/creators/search?q=a&limit=5');
    expect(broad.body.meta_data).toMatchObject({ total_relation: 'gte', page: 1, limit: 5 });
    expect(broad.body.meta_data.total).toBeGreaterThan(5);
    expect(broad.body.data.creators).toHaveLength(5);
    const top = (await api.get('/creators?limit=1')).body.data.creators[0];
    const exact = await api.get(`/creators/search?q=${encodeURIComponent(top.name)}&limit=100`);
    expect(exact.body.meta_data.total_relation).toBe('eq');
    expect(exact.body.meta_data.total).toBe(exact.body.data.creators.length);
  });
});

describe('pagination meta_data (spec 2.1)', () => {
  it('every paginated creators endpoint carries total, page, limit and total_pages', async () => {
    for (const path of [
      '/creators?page=2&limit=7',
      '/creators/live?page=2&limit=7',
      '/creators/featured?page=2&limit=7',
      '/creators/search?q=a&page=2&limit=7',
      '/tv/v3/creators/cr_0001/series?page=2&limit=7',
    ]) {
      const res = await api.get(path);
      expect(res.status, path).toBe(200);
      const { total, page, limit, total_pages } = res.body.meta_data;
      expect({ path, total: Number.isInteger(total), page, limit, total_pages }).toEqual({
        path,
        total: true,
        page: 2,
        limit: 7,
        total_pages: Math.ceil(total / 7),
      });
    }
  });
});

describe('reference lists', () => {
  it('GET /creators/tiers lists the four tiers', async () => {
    const res = await api.get('/creators/tiers');
    expect(res.status).toBe(200);
    expect(res.body.data.map((t: any) => t.id).sort()).toEqual([...TIER_IDS].sort());
    for (const t of res.body.data) expect(t).toEqual({ id: expect.any(String), label: expect.any(String) });
  });

  it('GET /categories counts creators per category', async () => {
    const res = await api.get('/categories');
    expect(res.status).toBe(200);
    expect(res.body.data.map((c: any) => c.id)).toEqual([...CATEGORY_IDS]);
    const total = (await api.get('/creators')).body.meta_data.total;
    expect(res.body.data.reduce((sum: number, c: any) => sum + c.creator_count, 0)).toBe(total);
    const comedy = (await api.get('/creators?category=comedy')).body.meta_data.total;
    expect(res.body.data.find((c: any) => c.id === 'comedy').creator_count).toBe(comedy);
  });
});

describe('unknown routes', () => {
  it('answer 404 with the error envelope', async () => {
    const res = await api.get('/nope');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ status: 'error', code: 404 });
  });
});

describe('GET /creators/{id}', () => {
  it('returns typed blocks, user first, with the spec fields', async () => {
    const top = (await api.get('/creators?limit=1')).body.data.creators[0];
    const res = await api.get(`/creators/${top.id}`);
    expect(res.status).toBe(200);
    const blocks = res.body.data;
    expect(Array.isArray(blocks)).toBe(true);
    expect(blocks[0].type).toBe('user');
    const user = blocks[0];
    expect(user).toMatchObject({
      id: top.id,
      name: top.name,
      tier: top.tier,
      category: top.category,
      channel_url: top.channel_url,
    });
    expect(user.audience_metrics).toMatchObject({
      subscribers: top.subscribers,
      subscribers_formatted: top.subscribers_formatted,
      views: expect.any(Number),
      views_formatted: expect.stringMatching(FORMATTED),
      instagram_followers: expect.any(Number),
      youtube_subscribers: expect.any(Number),
      tiktok_followers_formatted: expect.stringMatching(FORMATTED),
    });
    expect(user.user_state).toEqual({ is_following: false, is_subscribed: false });
    expect(Number.isNaN(Date.parse(user.joined_at))).toBe(false);
    const types = blocks.map((b: any) => b.type);
    for (const t of ['subscribe_banner', 'premium_content', 'offered_content']) expect(types).toContain(t);
    const banner = blocks.find((b: any) => b.type === 'subscribe_banner');
    expect(banner.plan).toEqual({
      price: expect.any(Number),
      currency: expect.any(String),
      interval: expect.any(String),
    });
    expect(banner.user_subscription).toEqual({
      is_subscribed: false,
      subscribed_at: null,
      renewal_date: null,
      status: null,
    });
  });

  it('includes show blocks for a creator with shows', async () => {
    // Walk the most popular creators until one with shows: the catalogue gives most creators none or a few.
    const creators = (await api.get('/creators?limit=50')).body.data.creators;
    let found: any[] | undefined;
    for (const c of creators) {
      const blocks = (await api.get(`/creators/${c.id}`)).body.data;
      if (blocks.some((b: any) => b.type === 'top_content')) {
        found = blocks;
        break;
      }
    }
    expect(found).toBeDefined();
    const top = found!.find((b: any) => b.type === 'top_content');
    expect(top).toMatchObject({
      id: expect.any(String),
      title: expect.any(String),
      image_url: expect.any(String),
      year: expect.any(Number),
      seasons: expect.any(Number),
      tags: expect.any(Array),
      starring: expect.any(String),
      subtitles: expect.any(Array),
    });
  });

  it('accepts the channel_url slug and answers 404 for an unknown creator', async () => {
    const top = (await api.get('/creators?limit=1')).body.data.creators[0];
    const slug = top.channel_url.split('/').pop();
    const bySlug = await api.get(`/creators/${slug}`);
    expect(bySlug.status).toBe(200);
    expect(bySlug.body.data[0].id).toBe(top.id);
    const missing = await api.get('/creators/cr_does_not_exist');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ status: 'error', code: 404, message: 'Creator not found' });
    expect((await api.get('/creators/bad%20id!')).status).toBe(400);
  });
});

describe('GET /creators/{id} signed in', () => {
  it("carries the caller's subscription in user_state and the subscribe banner", async () => {
    const { token } = await issueAccessToken(DEMO_VIEWER.account_id, new Date());
    for (const path of [`/creators/${GATED_LIVE_CREATOR_ID}`, `/tv/v3/creators/${GATED_LIVE_CREATOR_ID}`]) {
      const res = await api.get(path, { token });
      expect(res.status, path).toBe(200);
      const blocks = Array.isArray(res.body.data) ? res.body.data : res.body.data.blocks;
      expect(blocks[0].user_state.is_subscribed, path).toBe(true);
      const banner = blocks.find((b: any) => b.type === 'subscribe_banner');
      expect(banner.user_subscription, path).toEqual({
        is_subscribed: true,
        subscribed_at: expect.any(String),
        renewal_date: expect.any(String),
        status: 'active',
      });
    }
  });
});

describe('GET /tv/v3/creators/{id}', () => {
  it('carries is_live and a channel with the current and next program', async () => {
    const res = await api.get('/tv/v3/creators/cr_0001');
    expect(res.status).toBe(200);
    expect(res.body.data.is_live).toBe(true);
    expect(res.body.data.blocks[0].type).toBe('user');
    const [channel] = res.body.data.channels;
    expect(channel).toMatchObject({ channel_id: 'ch_0001', is_live: true });
    const now = Date.now();
    expect(Date.parse(channel.current_program.start_time)).toBeLessThanOrEqual(now);
    expect(Date.parse(channel.current_program.end_time)).toBeGreaterThan(now);
    expect(channel.next_program.start_time).toBe(channel.current_program.end_time);
    expect(channel.current_program.duration_minutes).toBe(
      (Date.parse(channel.current_program.end_time) - Date.parse(channel.current_program.start_time)) /
        60_000,
    );
    expect((await api.get('/tv/v3/creators/cr_nope')).status).toBe(404);
  });
});

describe('GET /tv/v3/creators/{id}/series', () => {
  it('pages the series with seasons of episodes, and answers 404 for an unknown creator', async () => {
    const res = await api.get(`/tv/v3/creators/${GATED_LIVE_CREATOR_ID}/series?limit=2`);
    expect(res.status).toBe(200);
    expect(res.body.data.items).toHaveLength(2);
    expect(res.body.meta_data).toMatchObject({ page: 1, limit: 2 });
    for (const series of res.body.data.items) {
      expect(series.seasons.length).toBe(series.seasons_count);
      expect(series.seasons.reduce((n: number, s: any) => n + s.episodes.length, 0)).toBe(
        series.episodes_count,
      );
    }
    const missing = await api.get('/tv/v3/creators/cr_nope/series');
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('Creator not found');
  });
});
