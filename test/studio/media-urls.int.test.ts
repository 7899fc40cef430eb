import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApi, testApi } from '../support/api.ts';
import { type StudioCreator, studioCreator } from '../support/studio.ts';

/**
 * Issue 33: media URLs are the platform's. The platform here runs as a deployment does, with an
 * https media CDN on a host of its own (set before the first request derives the functions'
 * environments), so a creator could name it if the studio let them.
 */
const MEDIA_CDN = 'https://media.example.org';
process.env.CDN_URL = MEDIA_CDN;

let api: TestApi;
let creator: StudioCreator;
beforeAll(async () => {
  api = await testApi();
  creator = await studioCreator(api, 'music');
}, 60_000);

const show = { title: 'Paywall probe', description: 'd', category: 'music', rating: 'TV-PG' };
const episode = { season: 1, episode_number: 1, title: 'Free one', duration_seconds: 60, is_free: true };
const RECORDING = `${MEDIA_CDN}/ivs/v1/123456789012/AbCdEf123456/2026/11/24/15/4/rec1/media/hls/master.m3u8`;
const fieldsOf = (body: { errors?: { field: string }[] }) => [
  ...new Set((body.errors ?? []).map((e) => e.field)),
];

describe('studio URLs cannot name the media CDN or IVS (https media CDN)', () => {
  let showId: string;
  let poster: string;
  beforeAll(async () => {
    const res = await api.post('/studio/shows', { token: creator.token, body: show });
    expect(res.status).toBe(201);
    showId = res.body.data.show_id;
    poster = res.body.data.thumbnail_url;
  });

  it.each([
    `${MEDIA_CDN}/ivs/x.m3u8`,
    RECORDING,
    'https://MEDIA.example.org./vod/x.m3u8',
    'https://a1b2c3d4e5f6.us-east-1.playback.live-video.net/api/video/v1/x.m3u8',
  ])('refuses stream_url %s on create (422), so no viewer gets it signed', async (url) => {
    const created = await api.post(`/studio/shows/${showId}/episodes`, {
      token: creator.token,
      body: { ...episode, stream_url: url },
    });
    expect(created.status).toBe(422);
    expect(fieldsOf(created.body)).toEqual(['stream_url']);
  });

  it('refuses a media CDN poster, and an edit to one', async () => {
    const created = await api.post('/studio/shows', {
      token: creator.token,
      body: { ...show, thumbnail_url: `${MEDIA_CDN}/ivs/v1/poster.jpg` },
    });
    expect(created.status).toBe(422);
    expect(fieldsOf(created.body)).toEqual(['thumbnail_url']);
    const edited = await api.patch(`/studio/shows/${showId}`, {
      token: creator.token,
      body: { thumbnail_url: `${MEDIA_CDN}/shows/x.jpg` },
    });
    expect(edited.status).toBe(422);
  });

  it('builds the default poster, playlist and still under CDN_URL (not a hard-coded host)', async () => {
    expect(poster).toBe(`${MEDIA_CDN}/shows/${showId}/poster.jpg`);
    const ep = await api.post(`/studio/shows/${showId}/episodes`, { token: creator.token, body: episode });
    expect(ep.status).toBe(201);
    const id = ep.body.data.episode_id;
    expect(ep.body.data.stream_url).toBe(`${MEDIA_CDN}/vod/${id}/master.m3u8`);
    expect(ep.body.data.thumbnail_url).toBe(`${MEDIA_CDN}/vod/${id}/thumb.jpg`);
  });
});

describe('bounds on stored studio input (issue 33)', () => {
  let showId: string;
  beforeAll(async () => {
    showId = (await api.post('/studio/shows', { token: creator.token, body: show })).body.data.show_id;
  });
  const longUrl = (length: number) => {
    const base = 'https://images.example.net/';
    return `${base}${'a'.repeat(length - base.length)}`;
  };

  it('takes a URL of 2,048 characters and refuses 2,049 or 50 KB', async () => {
    for (const [length, status] of [
      [2048, 200],
      [2049, 422],
      [50_000, 422],
    ] as const) {
      const res = await api.patch(`/studio/shows/${showId}`, {
        token: creator.token,
        body: { thumbnail_url: longUrl(length) },
      });
      expect(res.status, `${length} characters`).toBe(status);
    }
  });

  it.each(['9999-12-31T23:00:00Z', '0000-01-01T00:00:00+01:00', '1969-12-31T23:59:59Z'])(
    'refuses air_date %s outside 1970 to 10 years ahead (422, not a stored year that does not sort)',
    async (date) => {
      const res = await api.post(`/studio/shows/${showId}/episodes`, {
        token: creator.token,
        body: { ...episode, air_date: date },
      });
      expect(res.status).toBe(422);
      expect(fieldsOf(res.body)).toEqual(['air_date']);
    },
  );
});
