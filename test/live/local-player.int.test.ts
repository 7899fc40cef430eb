import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueAccessToken } from '../../shared/identity/access-token.ts';
import { type TestApi, testApi } from '../support/api.ts';
import { playbackClaimsOf, viaLocalCdn } from '../support/playback.ts';
import { type Player, startPlayer } from '../support/player.ts';
import { broadcast, type StudioCreator, studioCreator } from '../support/studio.ts';
import { waitFor } from '../support/wait.ts';

/**
 * The README's player (issue 34 item 2): a web page on a local origin, the local platform's own
 * `/_local/player` (plain hls.js, `new Hls()`: no `xhrSetup`, no custom loader), plays a watch
 * session's live `stream_url` with no setting changed: local playback tokens allow the loopback
 * origin the platform serves the page on (scripts/local/aws.ts `localPlaybackOrigins`), besides
 * SITE_URL's. Then the broadcast ends and the same page plays its recording's signed `stream_url`
 * from the creator's on-demand list: the media CDN serves each playlist with its children's URIs
 * carrying the signature (docs/live.md "Recorded media: signed URLs"), so hls.js needs nothing.
 */
let api: TestApi;
let player: Player;
let creator: StudioCreator;
let live = false;

beforeAll(async () => {
  delete process.env.PLAYBACK_ALLOW_ORIGIN; // the default, as npm start has it
  player = await startPlayer();
  api = await testApi();
  creator = await studioCreator(api, 'gaming');
  expect((await api.post('/studio/channel', { token: creator.token })).status).toBe(201);
  await broadcast('start', creator.creatorId);
  live = true;
  await waitFor(
    async () => (await api.get(`/creators/${creator.creatorId}/channel/live`)).body.data?.is_live === true,
    'the channel to go live',
  );
}, 120_000);
afterAll(async () => {
  if (live) await broadcast('stop', creator.creatorId);
  await player?.close();
});

describe("the local platform's player page", () => {
  it('plays a live stream_url in plain hls.js from its loopback origin, with no setting', async () => {
    const token = (await issueAccessToken(`acc_${randomUUID()}`, new Date())).token;
    const channel = (await api.get(`/creators/${creator.creatorId}/channel/live`)).body.data.channel
      .channel_id;
    const opened = await api.post(`/creators/${creator.creatorId}/channel/live/watch`, {
      token,
      body: { channel_id: channel, device_type: 'web' },
    });
    expect(opened.status).toBe(200);
    const { stream_url, token: playbackToken } = opened.body.data.stream;
    const page = new URL('/_local/player', process.env.IVS_ENDPOINT);
    expect(String(playbackClaimsOf(playbackToken)['aws:access-control-allow-origin']).split(',')).toContain(
      page.origin,
    );
    page.searchParams.set('src', stream_url);
    await player.open(page.href);
    try {
      const played = await player.waitPlayed(3, 30_000);
      expect(played.errors.filter((e) => e.fatal)).toEqual([]);
    } finally {
      await player.leave();
    }
  }, 150_000);

  it("plays the broadcast's recording (on demand, signed for the media CDN) in the same plain hls.js page", async () => {
    await broadcast('stop', creator.creatorId);
    live = false;
    let streamUrl: string | null | undefined;
    await waitFor(async () => {
      const res = await api.get(`/creators/${creator.creatorId}/channel/ondemand?limit=5`);
      streamUrl = res.body.data?.content?.[0]?.stream_url;
      return typeof streamUrl === 'string';
    }, 'the recording on demand');
    const recording = new URL(streamUrl!);
    expect(recording.pathname).toMatch(/\/media\/hls\/master\.m3u8$/);
    expect(recording.searchParams.get('Key-Pair-Id')).toBeTruthy();
    const page = new URL('/_local/player', process.env.IVS_ENDPOINT);
    // npm start's CDN_URL is this stand-in already (scripts/local/start-settings.ts); the test API's is the default.
    page.searchParams.set('src', viaLocalCdn(recording.href));
    await player.open(page.href);
    try {
      const played = await player.waitPlayed(2, 30_000);
      expect(played.errors.filter((e) => e.fatal)).toEqual([]);
    } finally {
      await player.leave();
    }
  }, 180_000);
});
