import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { fromNewAddress, type TestApi, testApi } from '../support/api.ts';
import { type ChatPage, openChatPage } from '../support/chat-browser.ts';
import { type StudioCreator, studioCreator } from '../support/studio.ts';

/**
 * Issue 39's browser test: the official `amazon-ivs-chat-messaging` SDK in headless Chromium
 * against the local platform (its IVS Chat stand-in, our token route, our review handler served
 * as its function, our moderation routes). Each user's token provider calls
 * `POST /creators/{id}/channel/chat/token` with the user's session, as a web app would. Two
 * viewers chat, a blocked term is refused with its reason, the creator deletes a message and
 * bans a viewer, who is disconnected at once and gets no new token.
 */

let api: TestApi;
let creator: StudioCreator;
let page: ChatPage;
const sessions = new Map<string, string>();
/** Each token request the page made: user and status. */
const requests: Array<{ user: string; status: number }> = [];

const signUp = async (name: string) => {
  const id = randomUUID().replace(/-/g, '').slice(0, 10);
  const res = await api.post(
    '/onboarding/account/create',
    fromNewAddress({
      body: {
        email: `${name}.${id}@example.com`,
        password: 'correct-horse-1',
        creator_name: name,
        handle: `${name}_${id}`,
        agreed_to_terms: true,
      },
    }),
  );
  expect(res.status).toBe(201);
  sessions.set(name, res.body.data.auth_token);
  return { accountId: res.body.data.creator_id as string, handle: `${name}_${id}` };
};

let maya: { accountId: string; handle: string };
let leo: { accountId: string; handle: string };
let endpoint: string;

beforeAll(async () => {
  api = await testApi();
  creator = await studioCreator(api, 'gaming');
  sessions.set('creator', creator.token);
  expect((await api.post('/studio/channel', { token: creator.token })).status).toBe(201);
  expect(
    (
      await api.put('/studio/chat/settings', {
        token: creator.token,
        body: { blocked_terms: ['spoiler'] },
      })
    ).status,
  ).toBe(200);
  maya = await signUp('maya');
  leo = await signUp('leo');
  page = await openChatPage(async (user) => {
    const res = await api.post(
      `/creators/${creator.creatorId}/channel/chat/token`,
      fromNewAddress({ token: sessions.get(user) }),
    );
    requests.push({ user, status: res.status });
    if (res.status !== 200) throw new Error(`token route answered ${res.status}`);
    endpoint = res.body.data.endpoint;
    return {
      token: res.body.data.token,
      tokenExpirationTime: res.body.data.token_expires_at,
      sessionExpirationTime: res.body.data.session_expires_at,
    };
  });
}, 180_000);

afterAll(async () => {
  await page?.close();
});

it('two viewers chat through our token route; a blocked term is refused with its reason; the creator deletes a message and bans a viewer, who is disconnected and gets no new token', async () => {
  const messagingEndpoint = process.env.IVSCHAT_MESSAGING_ENDPOINT!;
  for (const user of ['creator', 'maya', 'leo']) await page.call('join', messagingEndpoint, user);
  expect(endpoint).toBe(messagingEndpoint);
  for (const user of ['creator', 'maya', 'leo']) expect((await page.seen(user)).state).toBe('connected');

  const hello = await page.call<string>('say', 'maya', 'hello from Maya');
  const reply = await page.call<string>('say', 'leo', 'hi Maya!');
  await page.until(
    async () => (await page.seen('maya')).messages.length === 2,
    'both messages at Maya',
    15_000,
  );
  expect((await page.seen('maya')).messages).toEqual([
    { id: hello, content: 'hello from Maya', from: maya.accountId, name: maya.handle },
    { id: reply, content: 'hi Maya!', from: leo.accountId, name: leo.handle },
  ]);
  expect((await page.seen('leo')).messages.map((m) => m.id)).toEqual([hello, reply]);

  // Our review handler's DENY: the SDK's sendMessage rejects with IVS's 406 and our reason. (On
  // this shared 2-core machine an invocation can outlast IVS's 200 ms, and the room's fallback,
  // ALLOW, delivers the message: docs/chat.md "Fallback". Such a try is retried.)
  let refused: unknown;
  for (let attempt = 0; attempt < 5; attempt++) {
    refused = await page.call('say', 'leo', 'sp0iler: it was the butler');
    if (typeof refused !== 'string') break;
  }
  expect(refused).toEqual({ errorCode: 406, errorMessage: 'blocked_term' });

  // The creator's token has DELETE_MESSAGE: the SDK deletes Leo's message for everyone.
  expect(await page.call('remove', 'creator', reply, 'off topic')).toBe(reply);
  await page.until(async () => (await page.seen('maya')).deleted.includes(reply), 'the delete at Maya');

  // The ban, through the studio route: Leo is disconnected at once, the room is told to clear
  // his messages, and he gets no new token.
  const banned = await api.post('/studio/chat/bans', {
    token: creator.token,
    body: { account_id: leo.accountId, duration_seconds: null, reason: 'spam' },
  });
  expect(banned.status).toBe(201);
  await page.until(async () => (await page.seen('leo')).state === 'disconnected', 'Leo disconnected');
  expect((await page.seen('leo')).reason).toBe('serverDisconnect');
  await page.until(
    async () => (await page.seen('maya')).events.some((e) => e.name === 'app:DELETE_BY_USER'),
    'the clear-messages event at Maya',
  );
  expect((await page.seen('maya')).disconnected).toEqual([leo.accountId]);
  expect((await page.seen('maya')).events.find((e) => e.name === 'app:DELETE_BY_USER')?.attributes).toEqual({
    UserId: leo.accountId,
    Reason: 'spam',
  });
  // Leo's app tries again: the token route refuses him, so the SDK cannot connect.
  await page.call('rejoin', 'leo');
  await page.until(async () => (await page.seen('leo')).state === 'disconnected', 'Leo refused', 30_000);
  expect((await page.seen('leo')).reason).toBe('fetchTokenError');
  expect(requests.filter((r) => r.user === 'leo').map((r) => r.status)).toEqual(
    expect.arrayContaining([200, 403]),
  );
  expect(requests.filter((r) => r.user === 'leo' && r.status === 200)).toHaveLength(1);
  // Maya chats on.
  const after = await page.call<string>('say', 'maya', 'still here');
  await page.until(
    async () => (await page.seen('creator')).messages.some((m) => m.id === after),
    'Maya after the ban',
  );
}, 180_000);
