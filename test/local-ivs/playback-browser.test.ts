import { CreateChannelCommand, ImportPlaybackKeyPairCommand, IvsClient } from '@aws-sdk/client-ivs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type IvsStandIn, startIvsStandIn } from '../../scripts/local/ivs/api.ts';
import { createBroadcaster } from '../../scripts/local/ivs/broadcaster.ts';
import { type Player, startPlayer } from '../support/player.ts';
import { localIvsClientConfig, playbackKeyPair, playbackToken } from './playback-token.ts';

/**
 * A real player against the stand-in: hls.js in headless Chromium (test/support/player.ts) plays
 * a private channel's live stream with a valid token from a page on another origin (so CORS and
 * the token's allowed origin are exercised), across a loop discontinuity; an expired token ends
 * in a fatal hls.js network error.
 */
let ivs: IvsStandIn;
let client: IvsClient;
let player: Player;
let channelArn: string;
let playbackUrl: string;
const signer = playbackKeyPair();

beforeAll(async () => {
  ivs = await startIvsStandIn({ throttle: false });
  client = new IvsClient(localIvsClientConfig(ivs.endpoint));
  await client.send(new ImportPlaybackKeyPairCommand({ publicKeyMaterial: signer.publicKeyPem }));
  const { channel } = await client.send(new CreateChannelCommand({ name: 'browser', authorized: true }));
  channelArn = channel!.arn!;
  playbackUrl = channel!.playbackUrl!;
  // Live for 19 s already: the window holds the pattern's loop wrap, so playback crosses it.
  const broadcaster = createBroadcaster({
    state: ivs.state,
    pattern: ivs.pattern,
    sink: () => {},
    recordingsRoot: '/nonexistent',
    now: () => Date.now() - 19_000,
  });
  await broadcaster.start(channelArn);

  player = await startPlayer();
});
afterAll(async () => {
  await player?.close();
  client?.destroy();
  await ivs?.stop();
});

const open = (token: string) => player.play(`${playbackUrl}?token=${token}`);

describe('hls.js in Chromium', () => {
  it('plays a private live channel with a valid token: currentTime advances 5 s', async () => {
    const token = playbackToken(signer.privateKey, {
      'aws:channel-arn': channelArn,
      'aws:access-control-allow-origin': player.origin,
      exp: Math.floor(Date.now() / 1000) + 300,
    });
    await open(token);
    try {
      const playback = await player.waitPlayed(5);
      expect(playback.errors.filter((e) => e.fatal)).toEqual([]);
    } finally {
      await player.leave();
    }
  }, 30_000);

  it('an expired token is a fatal network error (403 on the manifest)', async () => {
    const token = playbackToken(signer.privateKey, {
      'aws:channel-arn': channelArn,
      exp: Math.floor(Date.now() / 1000) - 10,
    });
    await open(token);
    try {
      expect(await player.waitFatal()).toMatchObject({
        type: 'networkError',
        details: 'manifestLoadError',
        code: 403,
      });
    } finally {
      await player.leave();
    }
  });
});
