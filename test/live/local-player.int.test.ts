import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueAccessToken } from '../../shared/identity/access-token.ts';
import { type TestApi, testApi } from '../support/api.ts';
import { playbackClaimsOf } from '../support/playback.ts';
import { type Player, startPlayer } from '../support/player.ts';
import { type StudioCreator, studioCreator } from '../support/studio.ts';
import { waitFor } from '../support/wait.ts';

/**
 * The README's player (issue 34 item 2): a web page on a local origin, the local platform's own
 * `/_local/player` (plain hls.js, `new Hls()`), plays a watch session's live `stream_url` with no
 * setting changed: local playback tokens allow the loopback origin the platform serves the page
 * on (scripts/local/aws.ts `localPlaybackOrigins`), besides SITE_URL's.
 */
let api: TestApi;
let player: Player;
let creator: StudioCreator;

const broadcast = async (action: 'start' | 'stop', creatorId: string) => {
  const res = await fetch(`${process.env.IVS_ENDPOINT}/_local/broadcast/${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ channel: creatorId }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
};

beforeAll(async () => {
  delete process.env.PLAYBACK_ALLOW_ORIGIN; // the default, as npm start has it
  player = await startPlayer();
  api = await testApi();
  creator = await studioCreator(api, 'gaming');
  expect((await api.post('/studio/channel', { token: creator.token })).status).toBe(201);
  await broadcast('start', creator.creatorId);
  await waitFor(
    async () => (await api.get(`/creators/${creator.creatorId}/channel/live`)).body.data?.is_live === true,
    'the channel to go live',
  );
}, 120_000);
afterAll(async () => {
  if (creator) await broadcast('stop', creator.creatorId);
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
  }, 60_000);
});
