import { randomUUID } from 'node:crypto';
import { GetCommand } from '../../shared/db/document.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../shared/db/client.ts';
import { tableName } from '../../shared/db/table.ts';
import { issueAccessToken } from '../../shared/identity/access-token.ts';
import { episodeViewSource, getViewSet } from '../../shared/projection/view-set-repository.ts';
import { getShowCollection, showItemKey } from '../../shared/shows/show-repository.ts';
import { type TestApi, testApi } from '../support/api.ts';
import { onboardCreator } from '../support/payments.ts';
import { type StudioCreator, studioCreator } from '../support/studio.ts';
import { waitFor } from '../support/wait.ts';

let api: TestApi;
let owner: StudioCreator;
let other: StudioCreator;
beforeAll(async () => {
  api = await testApi();
  [owner, other] = await Promise.all([studioCreator(api, 'music'), studioCreator(api, 'comedy')]);
}, 30_000);

const showBody = (overrides: Record<string, unknown> = {}) => ({
  title: 'Late Night Loops',
  description: 'Live looping sessions recorded after midnight.',
  category: 'music',
  rating: 'TV-PG',
  ...overrides,
});
const episodeBody = (overrides: Record<string, unknown> = {}) => ({
  season: 1,
  episode_number: 1,
  title: 'Loop 1',
  duration_seconds: 1800,
  is_free: true,
  ...overrides,
});

const newShow = async (who: StudioCreator = owner, overrides: Record<string, unknown> = {}) => {
  const res = await api.post('/studio/shows', { token: who.token, body: showBody(overrides) });
  expect(res.status).toBe(201);
  return res.body.data as Record<string, any>;
};
const newEpisode = async (showId: string, overrides: Record<string, unknown> = {}, who = owner) => {
  const res = await api.post(`/studio/shows/${showId}/episodes`, {
    token: who.token,
    body: episodeBody(overrides),
  });
  expect(res.status).toBe(201);
  return res.body.data as Record<string, any>;
};

/** The stored profile item of a show (source item), read strongly consistent. */
const storedShow = async (id: string) =>
  (
    await db.send(
      new GetCommand({
        TableName: tableName(),
        Key: showItemKey(id),
        ConsistentRead: true,
      }),
    )
  ).Item;
/** Every item of a show's item collection. */
const storedCollection = async (id: string) => {
  const { profile, episodes } = await getShowCollection(id);
  return [...(profile ? [profile] : []), ...episodes];
};
/** The stored episodes of a show, in season and episode order. */
const storedEpisodes = async (id: string) => (await getShowCollection(id)).episodes;

describe('POST /studio/shows', () => {
  it('answers 201 with the show as stored, readable at once at GET /shows/{id} and by its slug', async () => {
    // Editorial and counted fields are not fields of the body: a creator cannot set them (422).
    const editorial = await api.post('/studio/shows', {
      token: owner.token,
      body: showBody({ title: 'Late Night Loops', is_featured: true, total_views: 9 }),
    });
    expect(editorial.status).toBe(422);
    expect(editorial.body.errors).toEqual([
      { field: 'is_featured', message: 'is_featured is not a field of this request body' },
      { field: 'total_views', message: 'total_views is not a field of this request body' },
    ]);
    const res = await api.post('/studio/shows', {
      token: owner.token,
      body: showBody({ title: '  Late Night Loops ', tags: ['looping', 'live'] }),
    });
    expect(res.status).toBe(201);
    const show = res.body.data;
    const id: string = show.show_id;
    expect(id).toMatch(/^sh_[0-9a-f]{12}$/);
    expect(show).toMatchObject({
      slug: `late_night_loops_${id.slice(3, 9)}`,
      channel_url: `/shows/late_night_loops_${id.slice(3, 9)}`,
      creator_id: owner.creatorId,
      title: 'Late Night Loops',
      category: 'music',
      rating: 'TV-PG',
      tags: ['looping', 'live'],
      thumbnail_url: `https://cdn.example.com/shows/${id}/poster.jpg`,
      is_new: true,
      is_featured: false,
      total_views: 0,
      views_7d: 0,
      subtitles: [],
      seasons: [],
      starring: `Studio ${owner.handle.slice('studio_'.length)}`,
      version: 1,
    });
    expect(Date.parse(show.released_at)).toBeGreaterThan(Date.now() - 60_000);
    expect(show.year).toBe(new Date(show.released_at).getUTCFullYear());

    const read = await api.get(`/shows/${id}`);
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({
      show_id: id,
      title: 'Late Night Loops',
      is_featured: false,
      creator: { id: owner.creatorId },
      episodes: [],
    });
    const bySlug = await api.get(`/shows/${show.slug}`);
    expect(bySlug.status).toBe(200);
    expect(bySlug.body.data.show_id).toBe(id);
    expect(await storedShow(id)).toMatchObject({
      version: 1,
      is_featured: false,
      creator_id: owner.creatorId,
    });
  });

  it('slugs every title (never an id-like `sh_` prefix) and the slug serves GET /shows/{slug}', async () => {
    for (const [title, base] of [
      ['Sh! Boom', 'show_sh_boom'],
      ['Café Ünïcode  Nights', 'cafe_unicode_nights'],
      ['🎉🎉', 'show'],
    ] as const) {
      const show = await newShow(owner, { title });
      expect(show.slug).toBe(`${base}_${show.show_id.slice(3, 9)}`);
      const read = await api.get(`/shows/${show.slug}`);
      expect(read.status).toBe(200);
      expect(read.body.data.show_id).toBe(show.show_id);
    }
  });

  it('keeps a given https poster URL', async () => {
    const show = await newShow(owner, { thumbnail_url: 'https://images.example.org/p/loops.jpg' });
    expect(show.thumbnail_url).toBe('https://images.example.org/p/loops.jpg');
  });

  it('answers 422 with the field for every rule, never 500', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ title: undefined }, 'title'],
      [{ title: '   ' }, 'title'],
      [{ title: 'x'.repeat(121) }, 'title'],
      [{ title: 42 }, 'title'],
      [{ description: 'x'.repeat(2001) }, 'description'],
      [{ description: undefined }, 'description'],
      [{ category: 'cooking' }, 'category'],
      [{ category: undefined }, 'category'],
      [{ rating: 'R' }, 'rating'],
      [{ tags: Array.from({ length: 11 }, (_, i) => `tag${i}`) }, 'tags'],
      [{ tags: ['ok', ''] }, 'tags.1'],
      [{ tags: ['x'.repeat(31)] }, 'tags.0'],
      [{ tags: 'music' }, 'tags'],
      [{ thumbnail_url: 'http://cdn.example.com/p.jpg' }, 'thumbnail_url'],
      [{ thumbnail_url: 'not a url' }, 'thumbnail_url'],
    ];
    for (const [overrides, field] of cases) {
      const res = await api.post('/studio/shows', { token: owner.token, body: showBody(overrides) });
      expect(res.status, JSON.stringify(overrides)).toBe(422);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
  });

  it('answers 401 without a token and 403 for an account that has no creator yet', async () => {
    const anonymous = await api.post('/studio/shows', { body: showBody() });
    expect(anonymous.status).toBe(401);
    const token = (await issueAccessToken(`acc_${randomUUID().replace(/-/g, '').slice(0, 12)}`, new Date()))
      .token;
    const forbidden = await api.post('/studio/shows', { token, body: showBody() });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toMatchObject({ status: 'error', code: 403 });
    for (const [method, path] of [
      ['PATCH', '/studio/shows/sh_000000000000'],
      ['DELETE', '/studio/shows/sh_000000000000'],
      ['POST', '/studio/shows/sh_000000000000/episodes'],
      ['PATCH', '/studio/shows/sh_000000000000/episodes/ep_000000000000'],
      ['DELETE', '/studio/shows/sh_000000000000/episodes/ep_000000000000'],
    ] as const) {
      const body = method === 'DELETE' ? undefined : method === 'POST' ? episodeBody() : { title: 'New' };
      expect((await api.request(method, path, { body })).status, `${method} ${path}`).toBe(401);
      expect((await api.request(method, path, { body, token })).status, `${method} ${path}`).toBe(403);
    }
  });
});

describe('PATCH and DELETE /studio/shows/{id}', () => {
  it('changes only the fields given, version one higher, the slug and its URL unchanged', async () => {
    const show = await newShow();
    const res = await api.patch(`/studio/shows/${show.show_id}`, {
      token: owner.token,
      body: { title: 'Early Morning Loops', tags: [], rating: 'TV-14' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      ...show,
      title: 'Early Morning Loops',
      tags: [],
      rating: 'TV-14',
      version: 2,
    });
    const bySlug = await api.get(`/shows/${show.slug}`);
    expect(bySlug.status).toBe(200);
    expect(bySlug.body.data).toMatchObject({
      show_id: show.show_id,
      title: 'Early Morning Loops',
      rating: 'TV-14',
    });
    const again = await api.patch(`/studio/shows/${show.show_id}`, {
      token: owner.token,
      body: { description: 'Now at dawn.' },
    });
    expect(again.body.data).toMatchObject({
      description: 'Now at dawn.',
      title: 'Early Morning Loops',
      version: 3,
    });
    expect(await storedShow(show.show_id)).toMatchObject({ version: 3, is_featured: false });
  });

  it('answers 422 for an empty body, a body of only unknown fields, or a bad field', async () => {
    const show = await newShow();
    for (const body of [
      {},
      { is_featured: true },
      { title: '' },
      { category: 'x' },
      { thumbnail_url: 'ftp://a.b/c' },
    ]) {
      const res = await api.patch(`/studio/shows/${show.show_id}`, { token: owner.token, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
    }
    expect(await storedShow(show.show_id)).toMatchObject({ version: 1 });
  });

  it('deletes the show and all its episodes: 204, then 404 everywhere', async () => {
    const show = await newShow();
    await newEpisode(show.show_id, { season: 1, episode_number: 1 });
    await newEpisode(show.show_id, { season: 2, episode_number: 1 });
    expect(await storedCollection(show.show_id)).toHaveLength(3);
    const res = await api.delete(`/studio/shows/${show.show_id}`, { token: owner.token });
    expect(res.status).toBe(204);
    expect(await storedCollection(show.show_id)).toEqual([]);
    expect((await api.get(`/shows/${show.show_id}`)).status).toBe(404);
    expect((await api.get(`/shows/${show.slug}`)).status).toBe(404);
    const again = await api.delete(`/studio/shows/${show.show_id}`, { token: owner.token });
    expect(again.status).toBe(404);
    expect(again.body.message).toBe('Show not found');
    const patch = await api.patch(`/studio/shows/${show.show_id}`, {
      token: owner.token,
      body: { title: 'Back' },
    });
    expect(patch.status).toBe(404);
    expect(await storedShow(show.show_id)).toBeUndefined();
  });

  it("answers 404 Show not found for another creator's show or none, and changes nothing", async () => {
    const show = await newShow(owner);
    const episode = await newEpisode(show.show_id);
    const before = await storedCollection(show.show_id);
    const base = `/studio/shows/${show.show_id}`;
    const attempts: Array<[string, string, unknown]> = [
      ['PATCH', base, { title: 'Mine now' }],
      ['DELETE', base, undefined],
      ['POST', `${base}/episodes`, episodeBody({ episode_number: 2 })],
      ['PATCH', `${base}/episodes/${episode.episode_id}`, { title: 'Mine now' }],
      ['DELETE', `${base}/episodes/${episode.episode_id}`, undefined],
    ];
    for (const [method, path, body] of attempts) {
      const res = await api.request(method, path, { token: other.token, body });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.message).toBe('Show not found');
    }
    expect(await storedCollection(show.show_id)).toEqual(before);
    for (const [method, path, body] of [
      ['PATCH', '/studio/shows/sh_ffffffffffff', { title: 'x' }],
      ['DELETE', '/studio/shows/sh_ffffffffffff', undefined],
      ['POST', '/studio/shows/sh_ffffffffffff/episodes', episodeBody()],
    ] as const) {
      const res = await api.request(method, path, { token: owner.token, body });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.message).toBe('Show not found');
    }
  });
});

describe('/studio/shows/{id}/episodes', () => {
  it('adds episodes (201), keeps the show seasons in step, 409 for a taken season and number', async () => {
    const show = await newShow();
    const first = await newEpisode(show.show_id);
    expect(first.episode_id).toMatch(/^ep_[0-9a-f]{12}$/);
    expect(first).toMatchObject({
      show_id: show.show_id,
      season: 1,
      episode_number: 1,
      title: 'Loop 1',
      description: '',
      duration_seconds: 1800,
      is_free: true,
      is_premium: false,
      access: 'free',
      stream_url: `https://cdn.example.com/vod/${first.episode_id}/master.m3u8`,
      views: 0,
      // An episode's version is its show's after the write: the show was at 1.
      version: 2,
    });
    const premium = await newEpisode(show.show_id, {
      episode_number: 2,
      is_free: false,
      is_premium: true,
      air_date: '2026-01-01T10:00:00+02:00',
      stream_url: 'https://video.example.org/loops/2.m3u8',
    });
    expect(premium).toMatchObject({
      access: 'premium',
      is_free: false,
      is_premium: true,
      air_date: '2026-01-01T08:00:00.000Z',
      stream_url: 'https://video.example.org/loops/2.m3u8',
      version: 3,
    });
    await newEpisode(show.show_id, { season: 3, episode_number: 999 });

    const duplicate = await api.post(`/studio/shows/${show.show_id}/episodes`, {
      token: owner.token,
      body: episodeBody({ title: 'Another first' }),
    });
    expect(duplicate.status).toBe(409);

    const profile = await storedShow(show.show_id);
    expect(profile?.seasons).toEqual([
      { number: 1, title: 'Season 1' },
      { number: 3, title: 'Season 3' },
    ]);
    expect(profile?.version).toBe(4);
    const read = await api.get(`/shows/${show.show_id}`);
    expect(read.body.data.seasons).toBe(2);
    expect(read.body.data.episodes.map((e: any) => [e.season, e.episode_number, e.is_free])).toEqual([
      [1, 1, true],
      [1, 2, false],
      [3, 999, true],
    ]);
  });

  it('takes parallel uploads to one show: every episode written, seasons and version counted once each', async () => {
    const show = await newShow();
    const positions = [
      [1, 1],
      [1, 2],
      [2, 1],
      [3, 1],
      [3, 2],
      [5, 10],
    ];
    const results = await Promise.all(
      positions.map(([season, episode_number]) =>
        api.post(`/studio/shows/${show.show_id}/episodes`, {
          token: owner.token,
          body: episodeBody({ season, episode_number, title: `S${season}E${episode_number}` }),
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(positions.map(() => 201));
    const profile = await storedShow(show.show_id);
    expect(profile?.seasons.map((s: { number: number }) => s.number)).toEqual([1, 2, 3, 5]);
    expect(profile?.version).toBe(1 + positions.length);

    const twins = await Promise.all(
      [0, 1].map(() =>
        api.post(`/studio/shows/${show.show_id}/episodes`, {
          token: owner.token,
          body: episodeBody({ season: 7, episode_number: 1 }),
        }),
      ),
    );
    expect(twins.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(await storedEpisodes(show.show_id)).toHaveLength(7);
  });

  it('answers 422 with the field for every rule, never 500', async () => {
    const show = await newShow();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ season: 0 }, 'season'],
      [{ season: 100 }, 'season'],
      [{ season: 1.5 }, 'season'],
      [{ season: '1' }, 'season'],
      [{ episode_number: 0 }, 'episode_number'],
      [{ episode_number: 1000 }, 'episode_number'],
      [{ title: '' }, 'title'],
      [{ title: 'x'.repeat(121) }, 'title'],
      [{ duration_seconds: 0 }, 'duration_seconds'],
      [{ duration_seconds: 86_401 }, 'duration_seconds'],
      [{ is_free: undefined }, 'is_free'],
      [{ is_free: 'yes' }, 'is_free'],
      [{ is_free: true, is_premium: true }, 'is_premium'],
      [{ air_date: '2026-01-01' }, 'air_date'],
      [{ air_date: '2026-01-01T10:00:00' }, 'air_date'],
      [{ stream_url: 'http://cdn.example.com/a.m3u8' }, 'stream_url'],
      [{ description: 'x'.repeat(2001) }, 'description'],
    ];
    for (const [overrides, field] of cases) {
      const res = await api.post(`/studio/shows/${show.show_id}/episodes`, {
        token: owner.token,
        body: episodeBody(overrides),
      });
      expect(res.status, JSON.stringify(overrides)).toBe(422);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    expect(await storedCollection(show.show_id)).toHaveLength(1);
  });

  it('sells an episode pay-per-view (access ppv with price and currency), and takes it back to premium', async () => {
    const show = await newShow();
    const ppvBody = { is_free: false, access: 'ppv', price: 2.99, currency: 'EUR' };
    // A paid price needs payouts that take charges first (issue 36 item 4): 409 with the way out.
    const early = await api.post(`/studio/shows/${show.show_id}/episodes`, {
      token: owner.token,
      body: episodeBody(ppvBody),
    });
    expect(early.status).toBe(409);
    expect(early.body.message).toContain('POST /studio/payouts/onboarding');
    await onboardCreator(api, owner.token, owner.creatorId);
    const ppv = await newEpisode(show.show_id, {
      is_free: false,
      access: 'ppv',
      price: 2.99,
      currency: 'EUR',
    });
    expect(ppv).toMatchObject({
      access: 'ppv',
      is_free: false,
      is_premium: true,
      price: 2.99,
      currency: 'EUR',
    });
    const path = `/studio/shows/${show.show_id}/episodes/${ppv.episode_id}`;
    const repriced = await api.patch(path, {
      token: owner.token,
      body: { access: 'ppv', price: 4.5, currency: 'USD' },
    });
    expect(repriced.body.data).toMatchObject({ access: 'ppv', price: 4.5, currency: 'USD' });
    const premium = await api.patch(path, { token: owner.token, body: { access: 'premium' } });
    expect(premium.body.data).toMatchObject({ access: 'premium', price: null, currency: null });
    const free = await newEpisode(show.show_id, { episode_number: 2 });
    expect(free).toMatchObject({ access: 'free', price: null, currency: null });

    const cases: Array<[Record<string, unknown>, string]> = [
      [{ is_free: false, access: 'ppv', currency: 'USD' }, 'price'],
      [{ is_free: false, access: 'ppv', price: 2.99 }, 'currency'],
      [{ is_free: false, price: 2.99, currency: 'USD' }, 'price'],
      [{ is_free: false, access: 'free' }, 'access'],
      [{ is_free: true, access: 'ppv', price: 2.99, currency: 'USD' }, 'access'],
      [{ is_free: false, access: 'ppv', price: 0.1, currency: 'USD' }, 'price'],
      [{ is_free: false, access: 'ppv', price: 2.999, currency: 'USD' }, 'price'],
      [{ is_free: false, access: 'ppv', price: 2.99, currency: 'XYZ' }, 'currency'],
      [{ is_free: false, access: 'rent' }, 'access'],
    ];
    for (const [overrides, field] of cases) {
      const res = await api.post(`/studio/shows/${show.show_id}/episodes`, {
        token: owner.token,
        body: episodeBody({ episode_number: 3, ...overrides }),
      });
      expect(res.status, JSON.stringify(overrides)).toBe(422);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    const bad = await api.patch(path, { token: owner.token, body: { access: 'ppv' } });
    expect(bad.status).toBe(422);
    // The show and its two episodes: no refused body wrote anything.
    expect(await storedCollection(show.show_id)).toHaveLength(3);
  });

  it('edits an episode in place (new version), moves it to another season, and deletes it', async () => {
    const show = await newShow();
    const a = await newEpisode(show.show_id, { season: 1, episode_number: 1 });
    const b = await newEpisode(show.show_id, { season: 2, episode_number: 1, is_free: false });
    const path = (e: Record<string, any>) => `/studio/shows/${show.show_id}/episodes/${e.episode_id}`;

    const edit = await api.patch(path(b), {
      token: owner.token,
      body: { title: 'Renamed', is_premium: false },
    });
    expect(edit.status).toBe(200);
    expect(edit.body.data).toEqual({
      ...b,
      title: 'Renamed',
      is_free: true,
      is_premium: false,
      access: 'free',
      version: 4,
    });
    expect(b.version).toBe(3);
    expect((await storedShow(show.show_id))?.version).toBe(4);

    const taken = await api.patch(path(b), { token: owner.token, body: { season: 1, episode_number: 1 } });
    expect(taken.status).toBe(409);
    expect((await storedShow(show.show_id))?.version).toBe(4);

    const move = await api.patch(path(b), { token: owner.token, body: { season: 4, episode_number: 7 } });
    expect(move.status).toBe(200);
    expect(move.body.data).toMatchObject({
      episode_id: b.episode_id,
      season: 4,
      episode_number: 7,
      title: 'Renamed',
      version: 5,
    });
    const moved = await storedShow(show.show_id);
    expect(moved?.seasons).toEqual([
      { number: 1, title: 'Season 1' },
      { number: 4, title: 'Season 4' },
    ]);
    expect(moved?.version).toBe(5);
    const read = await api.get(`/shows/${show.show_id}`);
    expect(read.body.data.episodes.map((e: any) => [e.episode_id, e.season, e.episode_number])).toEqual([
      [a.episode_id, 1, 1],
      [b.episode_id, 4, 7],
    ]);

    const removed = await api.delete(path(b), { token: owner.token });
    expect(removed.status).toBe(204);
    const after = await storedShow(show.show_id);
    expect(after?.seasons).toEqual([{ number: 1, title: 'Season 1' }]);
    expect(after?.version).toBe(6);
    const read2 = await api.get(`/shows/${show.show_id}`);
    expect(read2.body.data.episodes.map((e: any) => e.episode_id)).toEqual([a.episode_id]);

    for (const [method, body] of [
      ['DELETE', undefined],
      ['PATCH', { title: 'Ghost' }],
    ] as const) {
      const gone = await api.request(method, path(b), { token: owner.token, body });
      expect(gone.status).toBe(404);
      expect(gone.body.message).toBe('Episode not found');
    }
  });

  it('gives an episode created where another was deleted a newer version than the deleted one had', async () => {
    // Versions follow the show's clock, so an episode written after another's deletion is newer
    // than anything written before (a move's new item sorts after its old item's deletion).
    const show = await newShow();
    const first = await newEpisode(show.show_id);
    for (const title of ['One', 'Two', 'Three']) {
      const res = await api.patch(`/studio/shows/${show.show_id}/episodes/${first.episode_id}`, {
        token: owner.token,
        body: { title },
      });
      expect(res.status).toBe(200);
    }
    const [last] = await storedEpisodes(show.show_id);
    expect(last?.version).toBe(5);
    const removed = await api.delete(`/studio/shows/${show.show_id}/episodes/${first.episode_id}`, {
      token: owner.token,
    });
    expect(removed.status).toBe(204);
    const again = await newEpisode(show.show_id);
    expect(again.episode_id).not.toBe(first.episode_id);
    expect(again.version).toBeGreaterThan(last!.version + 1);
    expect((await storedShow(show.show_id))?.version).toBe(again.version);
    // And the projector does project it (its view set, keyed by its id, reaches its version, with views).
    const viewSet = () => getViewSet(episodeViewSource(again.episode_id));
    await waitFor(
      async () => {
        const set = await viewSet();
        return set?.source_version === again.version && Object.keys(set?.views ?? {}).length > 0;
      },
      'the new episode at the reused position to be projected',
      15_000,
    );
  });

  it('reaches the projected views: a new show is found by search, and no more once deleted', async () => {
    const word = `zq${randomUUID()
      .replace(/[^a-f]/g, '')
      .slice(0, 8)}`;
    const show = await newShow(owner, { title: `Loops ${word}` });
    const hits = async () =>
      ((await api.get(`/shows/search?q=${word}`)).body.data.shows as Array<{ id: string }>).map((h) => h.id);
    await waitFor(async () => (await hits()).includes(show.show_id), 'the show in search', 15_000);
    expect((await api.delete(`/studio/shows/${show.show_id}`, { token: owner.token })).status).toBe(204);
    await waitFor(async () => !(await hits()).includes(show.show_id), 'the show gone from search', 15_000);
  });

  it("follows its creator's rename in search: the show's card carries the creator's name", async () => {
    const renamed = await studioCreator(api, 'music');
    const word = `zq${randomUUID()
      .replace(/[^a-f]/g, '')
      .slice(0, 8)}`;
    const show = await newShow(renamed, { title: `Loops ${word}` });
    const creatorOnCard = async () =>
      (
        (await api.get(`/shows/search?q=${word}`)).body.data.shows as Array<{ id: string; creator: any }>
      ).find((h) => h.id === show.show_id)?.creator;
    await waitFor(async () => (await creatorOnCard()) !== undefined, 'the show in search', 15_000);
    expect(await creatorOnCard()).toMatchObject({
      id: renamed.creatorId,
      name: expect.stringMatching(/^Studio /),
    });
    const name = `Renamed ${word}`;
    const res = await api.patch('/studio/profile', { token: renamed.token, body: { creator_name: name } });
    expect(res.status).toBe(200);
    await waitFor(
      async () => (await creatorOnCard())?.name === name,
      'the new name on the show card',
      15_000,
    );
  });

  it("answers 404 Episode not found for another show's episode, 422 for an empty or bad PATCH", async () => {
    const show = await newShow();
    const otherShow = await newShow();
    const own = await newEpisode(show.show_id);
    const foreign = await newEpisode(otherShow.show_id);
    const res = await api.patch(`/studio/shows/${show.show_id}/episodes/${foreign.episode_id}`, {
      token: owner.token,
      body: { title: 'Taken over' },
    });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Episode not found');
    const del = await api.delete(`/studio/shows/${show.show_id}/episodes/${foreign.episode_id}`, {
      token: owner.token,
    });
    expect(del.status).toBe(404);
    for (const body of [{}, { season: 0 }, { is_free: true, is_premium: true }, { air_date: 'tomorrow' }]) {
      const bad = await api.patch(`/studio/shows/${show.show_id}/episodes/${own.episode_id}`, {
        token: owner.token,
        body,
      });
      expect(bad.status, JSON.stringify(body)).toBe(422);
    }
    const [episode] = await storedEpisodes(otherShow.show_id);
    expect(episode).toMatchObject({ title: 'Loop 1', version: 2 });
  });
});
