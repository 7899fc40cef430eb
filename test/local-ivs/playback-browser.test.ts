import { CreateChannelCommand, ImportPlaybackKeyPairCommand, IvsClient } from '@aws-sdk/client-ivs';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import chromium from '@sparticuz/chromium';
import { type Browser, type Page, chromium as playwright } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type IvsStandIn, startIvsStandIn } from '../../scripts/local/ivs/api.ts';
import { createBroadcaster } from '../../scripts/local/ivs/broadcaster.ts';
import { localIvsClientConfig, playbackKeyPair, playbackToken } from './playback-token.ts';

/**
 * A real player against the stand-in: hls.js in headless Chromium (the browser @sparticuz/chromium
 * ships in its npm tarball) plays a private channel's live stream with a valid token from a page
 * on another origin (so CORS and the token's allowed origin are exercised), across a loop
 * discontinuity; an expired token ends in a fatal hls.js network error.
 */
const hlsJs = readFileSync(createRequire(import.meta.url).resolve('hls.js/dist/hls.min.js'), 'utf8');
const PAGE = `<!doctype html><html><body><video id="video" muted playsinline></video>
<script src="/hls.min.js"></script>
<script>
  window.playback = { errors: [], startedAt: null, played: 0 };
  const video = document.getElementById('video');
  const hls = new Hls({ manifestLoadPolicy: { default: { maxTimeToFirstByteMs: 5000, maxLoadTimeMs: 5000,
    timeoutRetry: null, errorRetry: null } } });
  hls.on(Hls.Events.ERROR, (_, data) => window.playback.errors.push(
    { fatal: data.fatal, type: data.type, details: data.details, code: data.response && data.response.code }));
  video.addEventListener('playing', () => { window.playback.startedAt ??= video.currentTime; });
  video.addEventListener('timeupdate', () => {
    if (window.playback.startedAt !== null) window.playback.played = video.currentTime - window.playback.startedAt;
  });
  hls.loadSource(new URLSearchParams(location.search).get('src'));
  hls.attachMedia(video);
  hls.on(Hls.Events.MANIFEST_PARSED, () => video.play());
</script></body></html>`;

let ivs: IvsStandIn;
let client: IvsClient;
let page: Server;
let pageOrigin: string;
let browser: Browser;
let tab: Page;
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

  page = createServer((req, res) => {
    const script = req.url === '/hls.min.js';
    res.writeHead(200, { 'content-type': script ? 'text/javascript' : 'text/html' });
    res.end(script ? hlsJs : PAGE);
  });
  await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
  pageOrigin = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
  browser = await playwright.launch({
    executablePath: await chromium.executablePath(),
    // Without --disable-web-security (in chromium.args), so the browser enforces CORS as a viewer's does.
    args: [
      ...chromium.args.filter((arg) => arg !== '--disable-web-security'),
      '--autoplay-policy=no-user-gesture-required',
    ],
    headless: true,
  });
  // One tab for every test: chromium.args include --single-process, where closing a tab ends the browser.
  tab = await browser.newPage();
});
afterAll(async () => {
  await browser?.close();
  page?.close();
  client?.destroy();
  await ivs?.stop();
});

const open = async (token: string) => {
  await tab.goto(`${pageOrigin}/?src=${encodeURIComponent(`${playbackUrl}?token=${token}`)}`);
};

/** What the page's script records (window.playback); `played` is seconds played since `playing`. */
interface Playback {
  errors: Array<{ fatal: boolean; type: string; details: string; code?: number }>;
  startedAt: number | null;
  played: number;
}
/** Runs in the page (serialised by playwright, so it may only use page globals). */
const readPlayback = (): Playback => (globalThis as unknown as { playback: Playback }).playback;

describe('hls.js in Chromium', () => {
  it('plays a private live channel with a valid token: currentTime advances 5 s', async () => {
    const token = playbackToken(signer.privateKey, {
      'aws:channel-arn': channelArn,
      'aws:access-control-allow-origin': pageOrigin,
      exp: Math.floor(Date.now() / 1000) + 300,
    });
    await open(token);
    try {
      await tab
        .waitForFunction(
          () => (globalThis as unknown as { playback: Playback }).playback.played >= 5,
          undefined,
          { timeout: 20_000, polling: 250 },
        )
        .catch(async (error: Error) => {
          throw new Error(`${error.message}; ${JSON.stringify(await tab.evaluate(readPlayback))}`);
        });
      const playback = await tab.evaluate(readPlayback);
      expect(playback.errors.filter((e) => e.fatal)).toEqual([]);
    } finally {
      await tab.goto('about:blank');
    }
  }, 30_000);

  it('an expired token is a fatal network error (403 on the manifest)', async () => {
    const token = playbackToken(signer.privateKey, {
      'aws:channel-arn': channelArn,
      exp: Math.floor(Date.now() / 1000) - 10,
    });
    await open(token);
    try {
      await tab.waitForFunction(
        () => (globalThis as unknown as { playback: Playback }).playback.errors.some((e) => e.fatal),
        undefined,
        {
          timeout: 10_000,
          polling: 100,
        },
      );
      const { errors, startedAt } = await tab.evaluate(readPlayback);
      expect(errors.find((e) => e.fatal)).toMatchObject({
        type: 'networkError',
        details: 'manifestLoadError',
        code: 403,
      });
      expect(startedAt).toBeNull();
    } finally {
      await tab.goto('about:blank');
    }
  });
});
