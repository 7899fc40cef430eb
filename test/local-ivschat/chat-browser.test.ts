import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CreateChatTokenCommand, CreateRoomCommand, IvschatClient } from '@aws-sdk/client-ivschat';
import chromium from '@sparticuz/chromium';
import { build } from 'esbuild';
import { type Browser, type Page, chromium as playwright } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type IvsChatStandIn, startIvsChatStandIn } from '../../scripts/local/ivschat/server.ts';

/**
 * The official browser SDK, `amazon-ivs-chat-messaging`, in headless Chromium against the
 * stand-in: if the SDK IVS ships for web clients connects, sends, deletes and disconnects here,
 * our chat client code will against IVS. Each viewer is a `ChatRoom` of the page, whose token
 * provider asks the test (standing in for the back end's token route) for a token from the real
 * @aws-sdk/client-ivschat.
 */

const PAGE_SCRIPT = `
import { ChatRoom, DeleteMessageRequest, DisconnectUserRequest, SendMessageRequest } from 'amazon-ivs-chat-messaging';
const viewers = {};
const silent = { debug() {}, info() {}, error() {} };
Object.assign(window, {
  viewers,
  join: (endpoint, userId) => new Promise((resolve) => {
    const seen = { messages: [], deleted: [], disconnected: [], state: 'connecting', reason: null, tokens: 0 };
    const room = new ChatRoom({
      regionOrUrl: endpoint,
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
    room.addListener('disconnect', (reason) => { seen.state = 'disconnected'; seen.reason = reason; });
    room.addListener('connect', () => { seen.state = 'connected'; resolve(); });
    viewers[userId] = { room, seen };
    room.connect();
  }),
  say: (userId, text) => viewers[userId].room.sendMessage(new SendMessageRequest(text)).then((m) => m.id, (e) => ({ errorCode: e.errorCode, errorMessage: e.errorMessage })),
  remove: (userId, id, reason) => viewers[userId].room.deleteMessage(new DeleteMessageRequest(id, reason)).then((e) => e.messageId),
  kick: (userId, target, reason) => viewers[userId].room.disconnectUser(new DisconnectUserRequest(target, reason)).then((e) => e.userId),
  seen: (userId) => viewers[userId].seen,
});
`;

interface Seen {
  messages: Array<{ id: string; content: string; from: string; name?: string }>;
  deleted: string[];
  disconnected: string[];
  state: string;
  reason: string | null;
  tokens: number;
}

const CAPABILITIES: Record<string, Array<'SEND_MESSAGE' | 'DELETE_MESSAGE' | 'DISCONNECT_USER'>> = {
  creator: ['SEND_MESSAGE', 'DELETE_MESSAGE', 'DISCONNECT_USER'],
  maya: ['SEND_MESSAGE'],
  leo: ['SEND_MESSAGE'],
};

let chat: IvsChatStandIn;
let client: IvschatClient;
let server: Server;
let browser: Browser;
let page: Page;
let roomArn: string;

beforeAll(async () => {
  chat = await startIvsChatStandIn({
    invoke: async (_arn, payload) => {
      const { Content } = payload as { Content: string };
      return Content.includes('spoiler')
        ? { ReviewResult: 'DENY', Attributes: { Reason: 'no spoilers' } }
        : { ReviewResult: 'ALLOW' };
    },
    // Chromium shares the machine's two cores: the review limit is not what this test measures.
    reviewTimeoutMs: 2000,
  });
  client = new IvschatClient({
    endpoint: chat.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  roomArn = (
    await client.send(
      new CreateRoomCommand({
        messageReviewHandler: {
          uri: 'arn:aws:lambda:us-east-1:000000000000:function:review',
          fallbackResult: 'DENY',
        },
      }),
    )
  ).arn!;
  const bundle = await build({
    stdin: { contents: PAGE_SCRIPT, resolveDir: import.meta.dirname, loader: 'js' },
    bundle: true,
    format: 'iife',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
  });
  const script = bundle.outputFiles[0]!.text;
  server = createServer((req, res) => {
    const isScript = req.url === '/chat.js';
    res.writeHead(200, { 'content-type': isScript ? 'text/javascript' : 'text/html' });
    res.end(isScript ? script : '<!doctype html><html><body><script src="/chat.js"></script></body></html>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  browser = await playwright.launch({ executablePath: await chromium.executablePath(), args: chromium.args });
  page = await browser.newPage();
  // The back end's token route: the server decides the user's capabilities.
  await page.exposeFunction('chatToken', async (userId: string) => {
    const t = await client.send(
      new CreateChatTokenCommand({
        roomIdentifier: roomArn,
        userId,
        capabilities: CAPABILITIES[userId] ?? [],
        attributes: { display_name: userId.toUpperCase() },
      }),
    );
    return {
      token: t.token,
      tokenExpirationTime: t.tokenExpirationTime?.toISOString(),
      sessionExpirationTime: t.sessionExpirationTime?.toISOString(),
    };
  });
  await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
});

afterAll(async () => {
  await browser?.close();
  server?.close();
  client?.destroy();
  await chat?.stop();
});

const seen = (userId: string) =>
  page.evaluate((id) => (globalThis as never as { seen(id: string): Seen }).seen(id), userId);
const call = <T>(fn: string, ...args: string[]) =>
  page.evaluate(
    ([name, values]) =>
      (globalThis as never as Record<string, (...a: string[]) => Promise<unknown>>)[name as string]!(
        ...(values as string[]),
      ),
    [fn, args] as const,
  ) as Promise<T>;
const until = async (check: () => Promise<boolean>, what: string) => {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
};

it('two viewers chat with the official SDK; the creator deletes a message and disconnects a viewer', async () => {
  for (const user of ['creator', 'maya', 'leo']) await call('join', chat.messagingEndpoint, user);

  const hello = await call<string>('say', 'maya', 'hello from Maya');
  const reply = await call<string>('say', 'leo', 'hi Maya!');
  await until(async () => (await seen('maya')).messages.length === 2, 'both messages at Maya');
  expect((await seen('maya')).messages).toEqual([
    { id: hello, content: 'hello from Maya', from: 'maya', name: 'MAYA' },
    { id: reply, content: 'hi Maya!', from: 'leo', name: 'LEO' },
  ]);
  expect((await seen('leo')).messages.map((m) => m.id)).toEqual([hello, reply]);

  // The review handler's DENY rejects the SDK's sendMessage promise with 406 and the reason.
  expect(await call('say', 'leo', 'spoiler: it was the butler')).toEqual({
    errorCode: 406,
    errorMessage: 'no spoilers',
  });

  expect(await call('remove', 'creator', reply, 'off topic')).toBe(reply);
  await until(async () => (await seen('maya')).deleted.includes(reply), 'the delete event at Maya');

  expect(await call('kick', 'creator', 'leo', 'banned')).toBe('leo');
  await until(async () => (await seen('leo')).state === 'disconnected', 'Leo disconnected');
  const leo = await seen('leo');
  expect(leo.reason).toBe('serverDisconnect');
  // A server disconnect is not a dropped connection: the SDK asks for no new token.
  expect(leo.tokens).toBe(1);
  expect((await seen('maya')).disconnected).toEqual(['leo']);
  expect(chat.messaging.connected(roomArn).sort()).toEqual(['creator', 'maya']);
});
