import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import chromium from '@sparticuz/chromium';
import { type Browser, type Page, chromium as playwright } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { issueAccessToken } from '../../shared/identity/access-token.ts';
import { generateCatalog } from '../../scripts/seed/generate.ts';
import { type TestApi, testApi } from '../support/api.ts';

/**
 * Issue 40's browser test: in headless Chromium, a viewer's page subscribes to a live demo channel
 * with the browser's own WebSocket (the Event API protocol, no SDK), another page opens two watch
 * sessions and sends reactions, and the first page sees the audience and the reaction totals move
 * within two ticks (5 s each), on the test platform's AppSync Events stand-in.
 */
const PAGE = `<!doctype html><html><body><script>
window.received = [];
const b64url = (text) => btoa(text).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
window.subscribe = (access) => new Promise((resolve, reject) => {
  const auth = { host: access.host, Authorization: access.auth.token };
  const ws = new WebSocket(access.endpoint, ['aws-appsync-event-ws', 'header-' + b64url(JSON.stringify(auth))]);
  ws.onopen = () => ws.send(JSON.stringify({ type: 'connection_init' }));
  ws.onerror = () => reject(new Error('websocket error'));
  ws.onmessage = (e) => {
    const m = JSON.parse(e.data);
    if (m.type === 'connection_ack') ws.send(JSON.stringify({ type: 'subscribe', id: 'live', channel: access.channel, authorization: auth }));
    else if (m.type === 'subscribe_success') resolve();
    else if (m.type === 'subscribe_error' || m.type === 'connection_error') reject(new Error(JSON.stringify(m)));
    else if (m.type === 'data') window.received.push({ at: Date.now(), message: JSON.parse(m.event) });
  };
});
window.call = (url, method, token, body) => fetch(url, { method,
  headers: { ...(token ? { authorization: 'Bearer ' + token } : {}), 'content-type': 'application/json' },
  body: body ? JSON.stringify(body) : undefined }).then(async (r) => ({ status: r.status, body: await r.json() }));
</script></body></html>`;

let api: TestApi;
let server: Server;
let browser: Browser;
let viewerPage: Page;
let otherPage: Page;
let origin: string;
let creator: { id: string; channel: string };

beforeAll(async () => {
  api = await testApi();
  const catalog = generateCatalog({ now: api.seededAt, seed: 42 });
  // A live demo channel open to anyone, none other file uses (realtime.int.test.ts takes the last).
  const live = catalog.creators.filter((c) => c.live && !c.channel.requires_subscription).at(-2)!;
  creator = { id: live.id, channel: live.channel.channel_id };
  server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(PAGE);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // chromium.args carries --disable-web-security: the pages call the API from their own origin.
  browser = await playwright.launch({ executablePath: await chromium.executablePath(), args: chromium.args });
  viewerPage = await browser.newPage();
  otherPage = await browser.newPage();
  await viewerPage.goto(origin, { timeout: 90_000 });
  await otherPage.goto(origin, { timeout: 90_000 });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

type Received = Array<{ at: number; message: { kind: string; data: Record<string, any> } }>;
/** The page's globals (the functions `evaluate` serialises run in the page: no closures over test code). */
type PageGlobals = {
  call(url: string, method: string, token?: string, body?: unknown): Promise<{ status: number; body: any }>;
  subscribe(access: unknown): Promise<void>;
  received: Received;
};

it('shows the audience and the reaction totals moving within two ticks', async () => {
  const url = (path: string) => `${api.url}${path}`;
  const access = await viewerPage.evaluate(
    (u) => (globalThis as unknown as PageGlobals).call(u, 'GET'),
    url(`/creators/${creator.id}/channel/live/realtime`),
  );
  expect(access.status).toBe(200);
  await viewerPage.evaluate((a) => (globalThis as unknown as PageGlobals).subscribe(a), access.body.data);
  const before = (await api.get(`/creators/${creator.id}/channel/live/viewers`)).body.data.viewers
    .watching_now;

  // The other page: two viewers open watch sessions and react.
  const tokens = [
    (await issueAccessToken(`acc_${randomUUID()}`, new Date())).token,
    (await issueAccessToken(`acc_${randomUUID()}`, new Date())).token,
  ];
  const acted = Date.now();
  const statuses = await otherPage.evaluate(
    async ([watchUrl, reactUrl, channel, t]) => {
      const call = (globalThis as unknown as PageGlobals).call;
      const out: number[] = [];
      for (const token of t as string[]) {
        out.push((await call(watchUrl, 'POST', token, { channel_id: channel, device_type: 'web' })).status);
        for (const emoji of ['🎸', '🎸', '💜'])
          out.push((await call(reactUrl, 'POST', token, { emoji })).status);
      }
      return out;
    },
    [
      url(`/creators/${creator.id}/channel/live/watch`),
      url(`/creators/${creator.id}/channel/live/reactions`),
      creator.channel,
      tokens,
    ] as const,
  );
  const done = Date.now();
  expect(statuses).toEqual([200, 202, 202, 202, 200, 202, 202, 202]);

  // Within two ticks of the last action (and the load of a shared machine): both have moved.
  const deadline = done + 2 * 5_000 + 5_000;
  let received: Received = [];
  const summed = () => {
    const totals = new Map<string, number>();
    for (const { message } of received.filter((r) => r.message.kind === 'reactions'))
      for (const { emoji, count } of message.data.totals) totals.set(emoji, (totals.get(emoji) ?? 0) + count);
    return totals;
  };
  const audienceMoved = () =>
    received.some((r) => r.message.kind === 'audience' && r.message.data.watching_now >= before + 2);
  while (Date.now() < deadline) {
    received = await viewerPage.evaluate(() => (globalThis as unknown as PageGlobals).received as Received);
    if (audienceMoved() && summed().get('🎸') === 4 && summed().get('💜') === 2) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  expect(audienceMoved(), JSON.stringify(received)).toBe(true);
  expect(Object.fromEntries(summed())).toMatchObject({ '🎸': 4, '💜': 2 });
  // When each moved, after the last action: the first audience message with both viewers, the
  // reactions message that completed the totals.
  const audienceAt = received.find(
    (r) => r.message.kind === 'audience' && r.message.data.watching_now >= before + 2,
  )!.at;
  const running = new Map<string, number>();
  let reactionsAt = 0;
  for (const { at, message } of received.filter((r) => r.message.kind === 'reactions')) {
    for (const { emoji, count } of message.data.totals) running.set(emoji, (running.get(emoji) ?? 0) + count);
    if (!reactionsAt && running.get('🎸') === 4 && running.get('💜') === 2) reactionsAt = at;
  }
  const seconds = (ms: number) => (ms / 1000).toFixed(1);
  console.log(
    `realtime browser: audience moved ${seconds(audienceAt - done)} s, reactions ${seconds(reactionsAt - done)} s after the last action (the actions took ${seconds(done - acted)} s)`,
  );
  expect(Math.max(audienceAt, reactionsAt) - done).toBeLessThanOrEqual(2 * 5_000 + 2_000);
}, 120_000);
