import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import chromium from '@sparticuz/chromium';
import { type Browser, type Page, chromium as playwright } from 'playwright-core';

/**
 * A real viewer's player for tests: hls.js in headless Chromium (the browser @sparticuz/chromium
 * ships in its npm tarball), on a page served from its own origin (so CORS and a playback token's
 * allowed origin are exercised as a browser enforces them). `play(src)` loads a stream;
 * `waitPlayed(s)` resolves once currentTime has advanced `s` seconds since `playing`;
 * `waitFatal()` resolves with the first fatal hls.js error. A CloudFront-signed playlist (recorded
 * media: docs/live.md "Recorded media") is played as docs/live.md tells web clients to: the
 * playlist's signature query is sent with every request under its directory (hls.js `xhrSetup`).
 */
const hlsJs = readFileSync(createRequire(import.meta.url).resolve('hls.js/dist/hls.min.js'), 'utf8');
const PAGE = `<!doctype html><html><body><video id="video" muted playsinline></video>
<script src="/hls.min.js"></script>
<script>
  window.playback = { errors: [], startedAt: null, played: 0 };
  const video = document.getElementById('video');
  const src = new URL(new URLSearchParams(location.search).get('src'));
  const signed = src.searchParams.has('Key-Pair-Id');
  const directory = src.origin + src.pathname.slice(0, src.pathname.lastIndexOf('/') + 1);
  const hls = new Hls({ manifestLoadPolicy: { default: { maxTimeToFirstByteMs: 5000, maxLoadTimeMs: 5000,
    timeoutRetry: null, errorRetry: null } },
    xhrSetup: (xhr, url) => {
      if (signed && url.startsWith(directory) && !url.includes('Key-Pair-Id=')) xhr.open('GET', url + src.search);
    } });
  hls.on(Hls.Events.ERROR, (_, data) => window.playback.errors.push(
    { fatal: data.fatal, type: data.type, details: data.details, code: data.response && data.response.code }));
  video.addEventListener('playing', () => { window.playback.startedAt ??= video.currentTime; });
  video.addEventListener('timeupdate', () => {
    if (window.playback.startedAt !== null) window.playback.played = video.currentTime - window.playback.startedAt;
  });
  hls.loadSource(src.href);
  hls.attachMedia(video);
  hls.on(Hls.Events.MANIFEST_PARSED, () => video.play());
</script></body></html>`;

/** What the page's script records (window.playback); `played` is seconds played since `playing`. */
export interface Playback {
  errors: Array<{ fatal: boolean; type: string; details: string; code?: number }>;
  startedAt: number | null;
  played: number;
}
/** Runs in the page (serialised by playwright, so it may only use page globals). */
const readPlayback = (): Playback => (globalThis as unknown as { playback: Playback }).playback;

export interface Player {
  /** The page's origin, e.g. `http://127.0.0.1:40123`. */
  origin: string;
  play(src: string): Promise<void>;
  /** Opens a page of someone else's that records `window.playback` the same way (the local platform's player). */
  open(page: string): Promise<void>;
  waitPlayed(seconds: number, timeoutMs?: number): Promise<Playback>;
  waitFatal(timeoutMs?: number): Promise<Playback['errors'][number]>;
  /** Leaves the stream (about:blank). */
  leave(): Promise<void>;
  close(): Promise<void>;
}

/** `port`: where the page is served (0: any free port). */
export const startPlayer = async (port = 0): Promise<Player> => {
  const server: Server = createServer((req, res) => {
    const script = req.url === '/hls.min.js';
    res.writeHead(200, { 'content-type': script ? 'text/javascript' : 'text/html' });
    res.end(script ? hlsJs : PAGE);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const browser: Browser = await playwright.launch({
    executablePath: await chromium.executablePath(),
    // Without --disable-web-security (in chromium.args), so the browser enforces CORS as a viewer's does.
    args: [
      ...chromium.args.filter((arg) => arg !== '--disable-web-security'),
      '--autoplay-policy=no-user-gesture-required',
    ],
    headless: true,
  });
  // One tab for everything: chromium.args include --single-process, where closing a tab ends the browser.
  const tab: Page = await browser.newPage();
  const state = () => tab.evaluate(readPlayback);
  return {
    origin,
    play: async (src) => {
      await tab.goto(`${origin}/?src=${encodeURIComponent(src)}`);
    },
    open: async (page) => {
      await tab.goto(page);
    },
    waitPlayed: async (seconds, timeoutMs = 20_000) => {
      await tab
        .waitForFunction(
          (s) => (globalThis as unknown as { playback: Playback }).playback.played >= s,
          seconds,
          { timeout: timeoutMs, polling: 250 },
        )
        .catch(async (error: Error) => {
          throw new Error(`${error.message}; ${JSON.stringify(await state())}`);
        });
      return state();
    },
    waitFatal: async (timeoutMs = 10_000) => {
      await tab.waitForFunction(
        () => (globalThis as unknown as { playback: Playback }).playback.errors.some((e) => e.fatal),
        undefined,
        { timeout: timeoutMs, polling: 100 },
      );
      return (await state()).errors.find((e) => e.fatal)!;
    },
    leave: async () => {
      await tab.goto('about:blank');
    },
    close: async () => {
      await browser.close();
      server.close();
    },
  };
};
