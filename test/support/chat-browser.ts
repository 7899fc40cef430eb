import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import chromium from '@sparticuz/chromium';
import { build } from 'esbuild';
import { chromium as playwright } from 'playwright-core';

/**
 * A page in headless Chromium running the official browser SDK, `amazon-ivs-chat-messaging`: each
 * user is a `ChatRoom` of the page whose token provider asks the test (`chatToken`, standing in
 * for a web app's call to its back end) for a token. What the page saw is read with `seen`.
 */

const PAGE_SCRIPT = `
import { ChatRoom, DeleteMessageRequest, DisconnectUserRequest, SendMessageRequest } from 'amazon-ivs-chat-messaging';
const viewers = {};
const silent = { debug() {}, info() {}, error() {} };
Object.assign(window, {
  viewers,
  join: (endpoint, userId) => new Promise((resolve) => {
    const seen = { messages: [], deleted: [], disconnected: [], events: [], state: 'connecting', reason: null, tokens: 0 };
    const room = new ChatRoom({
      regionOrUrl: endpoint,
      maxReconnectAttempts: 1,
      tokenProvider: async () => {
        seen.tokens += 1;
        const t = await window.chatToken(userId);
        return { token: t.token, sessionExpirationTime: new Date(t.sessionExpirationTime), tokenExpirationTime: new Date(t.tokenExpirationTime) };
      },
    });
    room.logger = silent;
    room.addListener('message', (m) => seen.messages.push({ id: m.id, content: m.content, from: m.sender.userId, name: m.sender.attributes?.display_name }));
    room.addListener('messageDelete', (e) => seen.deleted.push(e.messageId));
    room.addListener('userDisconnect', (e) => seen.disconnected.push(e.userId));
    room.addListener('event', (e) => seen.events.push({ name: e.eventName, attributes: e.attributes ?? {} }));
    room.addListener('disconnect', (reason) => { seen.state = 'disconnected'; seen.reason = reason; resolve(); });
    room.addListener('connect', () => { seen.state = 'connected'; resolve(); });
    viewers[userId] = { room, seen };
    room.connect();
  }),
  rejoin: (userId) => new Promise((resolve) => {
    const { room, seen } = viewers[userId];
    seen.state = 'connecting';
    room.addListener('disconnect', () => resolve());
    room.addListener('connect', () => resolve());
    room.connect();
  }),
  say: (userId, text) => viewers[userId].room.sendMessage(new SendMessageRequest(text)).then((m) => m.id, (e) => ({ errorCode: e.errorCode, errorMessage: e.errorMessage })),
  remove: (userId, id, reason) => viewers[userId].room.deleteMessage(new DeleteMessageRequest(id, reason)).then((e) => e.messageId),
  kick: (userId, target, reason) => viewers[userId].room.disconnectUser(new DisconnectUserRequest(target, reason)).then((e) => e.userId),
  seen: (userId) => viewers[userId].seen,
});
`;

/** What a user's room saw (SDK events, in order). */
export interface Seen {
  messages: Array<{ id: string; content: string; from: string; name?: string }>;
  deleted: string[];
  disconnected: string[];
  events: Array<{ name: string; attributes: Record<string, string> }>;
  state: string;
  reason: string | null;
  tokens: number;
}

/** What the token provider resolves (the SDK's `ChatToken`, with times as ISO strings). */
export interface PageToken {
  token: string;
  tokenExpirationTime?: string;
  sessionExpirationTime?: string;
}

export interface ChatPage {
  /** Calls a page function: join(endpoint, user), rejoin(user), say(user, text), remove(user, id, reason), kick(user, target, reason). */
  call<T>(fn: string, ...args: string[]): Promise<T>;
  seen(userId: string): Promise<Seen>;
  /** Polls `check` every 50 ms until it holds (or throws after `timeoutMs`). */
  until(check: () => Promise<boolean>, what: string, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** Opens the page; `chatToken(userId)` answers a token for the user, or throws (the SDK then fails to connect). */
export const openChatPage = async (chatToken: (userId: string) => Promise<PageToken>): Promise<ChatPage> => {
  const bundle = await build({
    stdin: { contents: PAGE_SCRIPT, resolveDir: import.meta.dirname, loader: 'js' },
    bundle: true,
    format: 'iife',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
  });
  const script = bundle.outputFiles[0]!.text;
  const server = createServer((req, res) => {
    const isScript = req.url === '/chat.js';
    res.writeHead(200, { 'content-type': isScript ? 'text/javascript' : 'text/html' });
    res.end(isScript ? script : '<!doctype html><html><body><script src="/chat.js"></script></body></html>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const browser = await playwright.launch({
    executablePath: await chromium.executablePath(),
    args: chromium.args,
  });
  const page = await browser.newPage();
  await page.exposeFunction('chatToken', chatToken);
  await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  return {
    call: <T>(fn: string, ...args: string[]) =>
      page.evaluate(
        ([name, values]) =>
          (globalThis as never as Record<string, (...a: string[]) => Promise<unknown>>)[name as string]!(
            ...(values as string[]),
          ),
        [fn, args] as const,
      ) as Promise<T>,
    seen: (userId: string) =>
      page.evaluate((id) => (globalThis as never as { seen(id: string): Seen }).seen(id), userId),
    until: async (check, what, timeoutMs = 5_000) => {
      for (const end = Date.now() + timeoutMs; Date.now() < end; ) {
        if (await check()) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`timed out waiting for ${what}`);
    },
    close: async () => {
      await browser.close();
      server.close();
    },
  };
};
