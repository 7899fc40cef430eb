import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serveMediaCdn } from '../../scripts/local/media-cdn.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clock } from '../../shared/clock.ts';
import { issueAccessToken } from '../../shared/identity/access-token.ts';
import { type TestApi, testApi } from '../support/api.ts';
import { playbackClaimsOf, viaLocalCdn } from '../support/playback.ts';
import { type Player, startPlayer } from '../support/player.ts';
import { broadcast, type StudioCreator, studioCreator } from '../support/studio.ts';
import { waitFor } from '../support/wait.ts';

/**
 * A watch session plays for real (issue 17): creators provision IVS channels through the studio
 * API and go live through the local IVS stand-in; a viewer opens a watch session, and its
 * `stream_url` (the IVS playback URL with the session's ES384 token) plays in hls.js in headless
 * Chromium. The stand-in's origin checks tokens as IVS does, so an expired token, a token of
 * another channel, and the token of an ended (revoked) session are refused.
 */
let api: TestApi;
let player: Player;
/** The media CDN stand-in, run here so its CORS allows the player page (PLAYBACK_ALLOW_ORIGIN below). */
let cdn: Server;
let cdnOrigin: string;
let first: StudioCreator;
let second: StudioCreator;
const realNow = clock.now;

const goLive = async (creator: StudioCreator) => {
  expect((await api.post('/studio/channel', { token: creator.token })).status).toBe(201);
  await broadcast('start', creator.creatorId);
  await waitFor(
    async () => (await api.get(`/creators/${creator.creatorId}/channel/live`)).body.data?.is_live === true,
    'the channel to go live',
  );
};

const watch = async (creator: StudioCreator, token: string) => {
  const channel = (await api.get(`/creators/${creator.creatorId}/channel/live`)).body.data.channel.channel_id;
  const opened = await api.post(`/creators/${creator.creatorId}/channel/live/watch`, {
    token,
    body: { channel_id: channel, device_type: 'web', quality: 'auto' },
  });
  expect(opened.status, JSON.stringify(opened.body)).toBe(200);
  return opened.body.data as {
    session: { session_id: string };
    stream: { stream_url: string; dvr_url: string; token: string; thumbnail_url: string };
  };
};

/** The player is refused at the first request: IVS (the stand-in) answers the playlist 403. */
const expectRefused = async (url: string) => {
  await player.play(url);
  try {
    expect(await player.waitFatal()).toMatchObject({ details: 'manifestLoadError', code: 403 });
  } finally {
    await player.leave();
  }
};

const viewer = async () => (await issueAccessToken(`acc_${randomUUID()}`, new Date())).token;

beforeAll(async () => {
  player = await startPlayer();
  // Tokens allow the player page's origin, as they allow the web app's on AWS (PLAYBACK_ALLOW_ORIGIN).
  process.env.PLAYBACK_ALLOW_ORIGIN = player.origin;
  cdn = createServer((req, res) => {
    serveMediaCdn(req, res).then((served) => served || res.writeHead(404).end());
  });
  await new Promise<void>((resolve) => cdn.listen(0, '127.0.0.1', resolve));
  cdnOrigin = `http://127.0.0.1:${(cdn.address() as AddressInfo).port}`;
  api = await testApi();
  [first, second] = await Promise.all([studioCreator(api, 'gaming'), studioCreator(api, 'music')]);
  await Promise.all([goLive(first), goLive(second)]);
}, 120_000);
afterAll(async () => {
  clock.now = realNow;
  cdn?.close();
  await Promise.all([
    first && broadcast('stop', first.creatorId),
    second && broadcast('stop', second.creatorId),
  ]);
  await player?.close();
});

describe("a watch session's stream_url in hls.js (Chromium)", () => {
  it('plays for 5 s of advancing playback, and stops playing once the session ends', async () => {
    const token = await viewer();
    const { session, stream } = await watch(first, token);
    expect(playbackClaimsOf(stream.token)['aws:access-control-allow-origin']).toBe(player.origin);
    await player.play(stream.stream_url);
    try {
      const playback = await player.waitPlayed(5);
      expect(playback.errors.filter((e) => e.fatal)).toEqual([]);
    } finally {
      await player.leave();
    }
    // Ending the session revokes it on IVS: the same URL is refused from then on.
    const ended = await api.delete(
      `/creators/${first.creatorId}/channel/live/watch?session_id=${session.session_id}`,
      { token },
    );
    expect(ended.status).toBe(200);
    await expectRefused(stream.stream_url);
  }, 60_000);

  it("refuses another channel's token and an expired one", async () => {
    const token = await viewer();
    const other = await watch(second, token);
    const mine = await watch(first, token);
    // The first channel's URL with the second channel's token.
    const url = new URL(mine.stream.stream_url);
    url.searchParams.set('token', other.stream.token);
    await expectRefused(url.href);
    // A session opened six minutes ago: its token (5 minutes) has expired.
    const past = new Date(Date.now() - 6 * 60_000);
    clock.now = () => past;
    const stale = await watch(first, await viewer());
    clock.now = realNow;
    expect(Number(playbackClaimsOf(stale.stream.token).exp) * 1000).toBeLessThan(Date.now());
    await expectRefused(stale.stream.stream_url);
  }, 60_000);

  it('plays the DVR (the recording IVS writes, signed for the media CDN), and not without its signature', async () => {
    const { stream } = await watch(first, await viewer());
    const dvr = new URL(stream.dvr_url);
    expect(dvr.pathname).toMatch(/\/media\/hls\/master\.m3u8$/);
    expect(dvr.searchParams.get('Key-Pair-Id')).toBeTruthy();
    await player.play(viaLocalCdn(dvr.href, cdnOrigin));
    try {
      const played = await player.waitPlayed(3, 30_000);
      expect(played.errors.filter((e) => e.fatal)).toEqual([]);
    } finally {
      await player.leave();
    }
    const unsigned = new URL(viaLocalCdn(dvr.href, cdnOrigin));
    unsigned.search = '';
    await expectRefused(unsigned.href);
  }, 60_000);

  it("answers a live thumbnail_url that loads: the recording's latest still, through the media CDN", async () => {
    let url = '';
    await waitFor(async () => {
      url = (await watch(first, await viewer())).stream.thumbnail_url;
      return url.endsWith('/media/latest_thumbnail/thumb.jpg');
    }, "the live thumbnail to be the recording's");
    expect(url.startsWith(`${process.env.CDN_URL ?? 'https://cdn.example.com'}/`)).toBe(true);
    const still = await fetch(viaLocalCdn(url, cdnOrigin));
    expect(still.status).toBe(200);
    expect((await still.arrayBuffer()).byteLength).toBeGreaterThan(100);
  });

  it('reports the ingest health IVS reports: starving is `poor`, recovered is `good`', async () => {
    const health = async () =>
      (await api.get(`/creators/${second.creatorId}/channel/live/metadata`)).body.data.stream_health;
    expect(await health()).toBe('good');
    await broadcast('starve', second.creatorId);
    await waitFor(async () => (await health()) === 'poor', 'the starvation to show');
    // IVS event times have second resolution and the reducer orders health changes by them: a
    // recovery stamped the same second as its starvation would be taken for a stale duplicate
    // (the minute's reconcile then corrects it). Recover in the next second, as an encoder would.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await broadcast('recover', second.creatorId);
    await waitFor(async () => (await health()) === 'good', 'the recovery to show');
  });
});
