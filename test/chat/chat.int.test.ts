import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountJobsRow } from '../../functions/accounts/workers.ts';
import { chatReviewRow } from '../../functions/workers.ts';
import { startLocalAccountJobs } from '../../scripts/local/accounts.ts';
import { askResetCode } from '../support/mail.ts';
import { functionContext, runAsFunction } from '../../scripts/local/aws.ts';
import { allRankedIds } from '../../shared/catalog/ranked-list.ts';
import { recordChatToken } from '../../shared/chat/chat-repository.ts';
import { closeChatRoom, ensureChatRoom } from '../../shared/chat/room-writes.ts';
import { CREATOR_LISTS } from '../../shared/creators/creator-ranking.ts';
import {
  reviewSettings,
  SETTINGS_TTL_MS,
  senderBan,
  senderStanding,
} from '../../shared/chat/review-settings.ts';
import { CHAT_MODERATOR_SESSION_MINUTES } from '../../shared/chat/policy.ts';
import { markDeleted } from '../../shared/identity/account-repository.ts';
import { applyEntitlement } from '../../shared/entitlements/entitlement-repository.ts';
import { tableName } from '../../shared/db/table.ts';
import { suspendCreator, unsuspendCreator } from '../../shared/studio/operator-writes.ts';
import { entitlement } from '../support/entitlements.ts';
import { fromNewAddress, type TestApi, testApi } from '../support/api.ts';
import { GetRoomCommand } from '@aws-sdk/client-ivschat';
import { chatControl, type ChatFrame, connectChat } from '../support/chat-socket.ts';
import { type StudioCreator, studioCreator } from '../support/studio.ts';
import { waitFor } from '../support/wait.ts';

let api: TestApi;
let creator: StudioCreator;
let roomArn: string;
beforeAll(async () => {
  api = await testApi();
  creator = await studioCreator(api, 'gaming');
  const made = await api.post('/studio/channel', { token: creator.token });
  expect(made.status).toBe(201);
  roomArn = made.body.data.chat_room_arn;
}, 120_000);

/** A signed-up account that is not a creator: a viewer. */
const viewer = async () => {
  const id = randomUUID().replace(/-/g, '').slice(0, 12);
  const res = await api.post(
    '/onboarding/account/create',
    fromNewAddress({
      body: {
        email: `chat.${id}@example.com`,
        password: 'correct-horse-1',
        creator_name: `Viewer ${id}`,
        handle: `chat_${id}`,
        agreed_to_terms: true,
      },
    }),
  );
  expect(res.status).toBe(201);
  return {
    token: res.body.data.auth_token as string,
    accountId: res.body.data.creator_id as string,
    handle: `chat_${id}`,
    email: `chat.${id}@example.com`,
  };
};

const token = (who?: { token: string }, path = `/creators/${creator.creatorId}/channel/chat/token`) =>
  api.post(path, fromNewAddress(who ? { token: who.token } : {}));

/** The room as IVS Chat (the platform's stand-in) holds it. */
const getRoom = (arn: string) => chatControl().send(new GetRoomCommand({ identifier: arn }));

/** Connects with a token from the token route (its `endpoint` and `token`). */
const join = (issued: { body: { data: { endpoint: string; token: string } } }) =>
  connectChat(issued.body.data.endpoint, issued.body.data.token);

/** Sends a message and answers the MESSAGE frame the room delivers for it (its Sender as IVS shows it). */
const say = async (socket: Awaited<ReturnType<typeof connectChat>>, content: string) => {
  const requestId = randomUUID();
  socket.send({ Action: 'SEND_MESSAGE', RequestId: requestId, Content: content });
  return socket.next((f) => f.RequestId === requestId);
};

const eventNamed = (name: string, userId?: string) => (f: ChatFrame) =>
  f.Type === 'EVENT' &&
  f.EventName === name &&
  (userId === undefined || (f.Attributes as Record<string, string>).UserId === userId);

describe('a chat room per channel', () => {
  it('POST /studio/channel made the room beside the channel: review handler, fallback, logging, tags', async () => {
    expect(roomArn).toMatch(/^arn:aws:ivschat:us-east-1:000000000000:room\/\w+$/);
    const room = await getRoom(roomArn);
    expect(room).toMatchObject({
      name: creator.creatorId,
      messageReviewHandler: {
        uri: expect.stringMatching(/^arn:aws:lambda:.+:function:.+chat-review-message$/),
        fallbackResult: 'ALLOW',
      },
      loggingConfigurationIdentifiers: [expect.stringMatching(/:logging-configuration\//)],
      maximumMessageLength: 500,
      tags: { creator_id: creator.creatorId, stage: 'local' },
    });
    expect((await api.get('/studio/channel', { token: creator.token })).body.data.chat_room_arn).toBe(
      roomArn,
    );
  });
});

describe('POST /creators/{id}/channel/chat/token', () => {
  it('anonymous: read-only; a viewer: SEND_MESSAGE with name and badges; the creator: all three; by handle too', async () => {
    const anonymous = await token();
    expect(anonymous.status).toBe(200);
    expect(anonymous.headers.get('cache-control')).toBe('no-store');
    expect(anonymous.body.data).toMatchObject({
      token: expect.any(String),
      endpoint: process.env.IVSCHAT_MESSAGING_ENDPOINT,
      capabilities: [],
      read_only_reason: 'sign_in',
    });
    expect(Date.parse(anonymous.body.data.session_expires_at)).toBeGreaterThan(Date.now());

    const v = await viewer();
    const mine = await token(v, `/creators/${creator.handle}/channel/chat/token`);
    expect(mine.body.data).toMatchObject({ capabilities: ['SEND_MESSAGE'], read_only_reason: null });
    // The token joins the channel's room and speaks as the account, with its name and badges
    // (through the room's review handler, served as its function by the platform).
    const socket = await join(mine);
    expect(await say(socket, 'hello')).toMatchObject({
      Type: 'MESSAGE',
      Content: 'hello',
      Sender: { UserId: v.accountId, Attributes: { display_name: v.handle, badges: '' } },
    });
    socket.close();

    const own = await token(creator);
    expect(own.body.data.capabilities).toEqual(['SEND_MESSAGE', 'DELETE_MESSAGE', 'DISCONNECT_USER']);
    expect((await token(undefined, '/creators/no_such_handle/channel/chat/token')).status).toBe(404);
  });

  it("a deleted account's still-valid access token gets no chat token: 401 (was an hour's session, past the purge)", async () => {
    const v = await viewer();
    expect((await token(v)).status).toBe(200);
    // DELETE /me's tombstone; the access token stays valid for up to its 15 minutes (docs/accounts.md).
    await markDeleted(v.accountId, new Date());
    const refused = await token(v);
    expect([refused.status, refused.body.message]).toEqual([401, 'This account was deleted']);
  });

  it('followers-only: a viewer reads only until they follow; the settings are recorded as an event', async () => {
    const v = await viewer();
    const set = await api.put('/studio/chat/settings', {
      token: creator.token,
      body: { followers_only_minutes: 0, blocked_terms: [' spoiler ', 'spoiler'] },
    });
    expect(set.status).toBe(200);
    expect(set.body.data).toEqual({
      slow_mode_seconds: 0,
      followers_only_minutes: 0,
      subscribers_only: false,
      emote_only: false,
      established_only_minutes: null,
      blocked_terms: ['spoiler'],
    });
    expect((await token(v)).body.data).toMatchObject({
      capabilities: [],
      read_only_reason: 'followers_only',
    });
    expect((await api.post(`/creators/${creator.creatorId}/follow`, { token: v.token })).status).toBe(200);
    expect((await token(v)).body.data.capabilities).toEqual(['SEND_MESSAGE']);
    await api.put('/studio/chat/settings', { token: creator.token, body: {} });
    expect(
      (await api.put('/studio/chat/settings', { token: creator.token, body: { slow_mode_seconds: -1 } }))
        .status,
    ).toBe(422);
    expect((await api.put('/studio/chat/settings', { body: {} })).status).toBe(401);
    expect((await api.put('/studio/chat/settings', { token: v.token, body: {} })).status).toBe(403);
    // The studio reads what it edits (no GET existed before stop 57).
    const read = await api.get('/studio/chat/settings', { token: creator.token });
    expect([read.status, read.body.data]).toEqual([
      200,
      { ...set.body.data, followers_only_minutes: null, blocked_terms: [] },
    ]);
    expect((await api.get('/studio/chat/settings')).status).toBe(401);
    expect((await api.get('/studio/chat/settings', { token: v.token })).status).toBe(403);
    expect(
      (await api.get(`/studio/chat/settings?channel=${v.accountId}`, { token: creator.token })).status,
    ).toBe(403);
  });
});

describe('moderation', () => {
  it('a moderator gets moderator capabilities and may ban for the channel; a ban disconnects, clears and refuses tokens for every request shape', async () => {
    const mod = await viewer();
    const troll = await viewer();
    expect((await api.put(`/studio/chat/moderators/${mod.accountId}`, { token: mod.token })).status).toBe(
      403,
    );
    const appointed = await api.put(`/studio/chat/moderators/${mod.accountId}`, { token: creator.token });
    expect(appointed.status).toBe(200);
    expect(appointed.body.data).toMatchObject({ account_id: mod.accountId, added_by: creator.creatorId });
    expect(
      (await api.put(`/studio/chat/moderators/${creator.creatorId}`, { token: creator.token })).status,
    ).toBe(409);
    expect((await api.put('/studio/chat/moderators/acc_nobody000000', { token: creator.token })).status).toBe(
      404,
    );
    expect((await token(mod)).body.data.capabilities).toEqual([
      'SEND_MESSAGE',
      'DELETE_MESSAGE',
      'DISCONNECT_USER',
    ]);
    const modSocket = await join(await token(mod));
    expect((await say(modSocket, 'hi all')).Sender).toMatchObject({
      UserId: mod.accountId,
      Attributes: { badges: 'moderator' },
    });
    modSocket.close();

    // A moderator names the channel; without it, it is their own (they are no creator: 403).
    // In the room when the ban comes: the troll and an anonymous watcher.
    const trollSocket = await join(await token(troll));
    const watcher = await join(await token());
    const ban = { account_id: troll.accountId, duration_seconds: null, reason: 'spam' };
    expect((await api.post('/studio/chat/bans', { token: mod.token, body: ban })).status).toBe(403);
    expect(
      (await api.post('/studio/chat/bans?channel=acc_elsewhere0000', { token: mod.token, body: ban })).status,
    ).toBe(403);
    expect((await api.post('/studio/chat/bans?channel=nope', { token: mod.token, body: ban })).status).toBe(
      400,
    );
    const banned = await api.post(`/studio/chat/bans?channel=${creator.creatorId}`, {
      token: mod.token,
      body: ban,
    });
    expect(banned.status).toBe(201);
    expect(banned.body.data).toMatchObject({ account_id: troll.accountId, until: null, by: mod.accountId });
    // IVS Chat disconnected the troll and the room was told to clear their messages.
    expect((await trollSocket.closed).code).toBe(1000);
    await watcher.next(eventNamed('aws:DISCONNECT_USER', troll.accountId));
    await watcher.next(eventNamed('app:DELETE_BY_USER', troll.accountId));
    watcher.close();
    // The creator and moderators cannot be banned by a moderator.
    for (const account_id of [creator.creatorId, mod.accountId])
      expect(
        (
          await api.post(`/studio/chat/bans?channel=${creator.creatorId}`, {
            token: mod.token,
            body: { ...ban, account_id },
          })
        ).status,
      ).toBeGreaterThanOrEqual(403);

    // No request shape gets the banned account a token.
    const shapes: Array<{
      path: string;
      body?: unknown;
      rawBody?: string;
      headers?: Record<string, string>;
    }> = [
      { path: creator.creatorId },
      { path: creator.handle },
      { path: creator.handle.toUpperCase() },
      {
        path: creator.creatorId,
        body: { capabilities: ['SEND_MESSAGE', 'DELETE_MESSAGE', 'DISCONNECT_USER'] },
      },
      { path: creator.creatorId, body: { user_id: mod.accountId, moderator: true, badges: 'creator' } },
      { path: `${creator.creatorId}?as=${mod.accountId}&capabilities=SEND_MESSAGE` },
      {
        path: creator.creatorId,
        rawBody: '{"capabilities":',
        headers: { 'content-type': 'application/json' },
      },
      { path: creator.creatorId, headers: { 'x-account-id': mod.accountId, 'x-forwarded-for': '10.0.0.1' } },
    ];
    for (const shape of shapes) {
      const [p, q] = shape.path.split('?');
      const res = await api.post(`/creators/${p}/channel/chat/token${q ? `?${q}` : ''}`, {
        token: troll.token,
        ...(shape.body ? { body: shape.body } : {}),
        ...(shape.rawBody ? { rawBody: shape.rawBody } : {}),
        ...fromNewAddress({ headers: shape.headers }),
      });
      expect(res.status, JSON.stringify(shape)).toBeGreaterThanOrEqual(400);
      expect(res.body?.data).toBeUndefined();
    }
    // And a viewer's request asking for more gets exactly a viewer's token.
    const plain = await viewer();
    const asking = await api.post(`/creators/${creator.creatorId}/channel/chat/token`, {
      token: plain.token,
      body: { capabilities: ['DELETE_MESSAGE', 'DISCONNECT_USER'], attributes: { badges: 'creator' } },
    });
    expect(asking.status === 200 ? asking.body.data.capabilities : []).not.toContain('DELETE_MESSAGE');

    // Lifting: tokens again; lifting twice: 404.
    expect((await api.delete(`/studio/chat/bans/${troll.accountId}`, { token: creator.token })).status).toBe(
      204,
    );
    expect((await token(troll)).status).toBe(200);
    expect((await api.delete(`/studio/chat/bans/${troll.accountId}`, { token: creator.token })).status).toBe(
      404,
    );

    // A timeout refuses tokens too.
    await api.post('/studio/chat/bans', { token: creator.token, body: { ...ban, duration_seconds: 600 } });
    expect((await token(troll)).status).toBe(403);

    expect(
      (await api.delete(`/studio/chat/moderators/${mod.accountId}`, { token: creator.token })).status,
    ).toBe(204);
    expect(
      (await api.delete(`/studio/chat/moderators/${mod.accountId}`, { token: creator.token })).status,
    ).toBe(404);
    expect((await token(mod)).body.data.capabilities).toEqual(['SEND_MESSAGE']);
  });

  it('the review handler, run as its function, reads the room and its settings and refuses a blocked term with the reason', async () => {
    await api.put('/studio/chat/settings', { token: creator.token, body: { blocked_terms: ['spoiler'] } });
    const { handler } = await import('../../functions/chat/review-message.ts');
    const review = (Content: string) =>
      runAsFunction(functionContext(chatReviewRow), () =>
        handler({ Content, RoomArn: roomArn, Sender: { UserId: 'acc_someone', Attributes: { badges: '' } } }),
      );
    // The container's first loads (settings, the sender's ban), as the function, without the 120 ms
    // budget (a loaded test machine can take longer; the budget's fallback is
    // test/chat/review.test.ts's): the review below then runs on these, as every warm message does.
    await runAsFunction(functionContext(chatReviewRow), () =>
      Promise.all([reviewSettings(roomArn, Date.now()), senderBan(roomArn, 'acc_someone', Date.now())]),
    );
    expect(await review('the ѕр0iler is')).toEqual({
      ReviewResult: 'DENY',
      Attributes: { Reason: 'blocked_term' },
    });
    expect(await review('hello')).toEqual({ ReviewResult: 'ALLOW' });
    // Through the room: IVS Chat answers the sender a 406 whose ErrorMessage is the handler's
    // `Attributes.Reason` (the Chat user guide's review handler response), and delivers nothing.
    // The served handler's container caches settings for SETTINGS_TTL_MS: the new term reaches it
    // within that time (docs/chat.md "Review").
    const v = await viewer();
    const socket = await join(await token(v));
    let answer: ChatFrame | undefined;
    const deadline = Date.now() + SETTINGS_TTL_MS + 5_000;
    while (Date.now() < deadline) {
      const requestId = randomUUID();
      socket.send({ Action: 'SEND_MESSAGE', RequestId: requestId, Content: 'the SP0ILER is' });
      answer = await socket.next((f) => f.RequestId === requestId);
      if (answer.Type === 'ERROR') break;
      await new Promise((r) => setTimeout(r, 1_000));
    }
    expect(answer).toMatchObject({ Type: 'ERROR', ErrorCode: 406, ErrorMessage: 'blocked_term' });
    socket.close();
    await api.put('/studio/chat/settings', { token: creator.token, body: {} });
  });

  it("the review handler, run as its function, drops a token's moderator or subscriber badge the table no longer backs (a removed moderator, a lapsed subscriber: they were exempt, or subscribers, for the token's hour)", async () => {
    const [removedMod, lapsed, mod, subscriber] = await Promise.all([viewer(), viewer(), viewer(), viewer()]);
    expect((await api.put(`/studio/chat/moderators/${mod.accountId}`, { token: creator.token })).status).toBe(
      200,
    );
    const now = new Date();
    await applyEntitlement(
      entitlement({
        account_id: subscriber.accountId,
        creator_id: creator.creatorId,
        valid_until: new Date(now.getTime() + 30 * 86_400_000).toISOString(),
        started_at: now.toISOString(),
        observed_at: now.getTime(),
      }),
    );
    expect(
      (await api.put('/studio/chat/settings', { token: creator.token, body: { subscribers_only: true } }))
        .status,
    ).toBe(200);
    const { handler } = await import('../../functions/chat/review-message.ts');
    const senders = [
      [removedMod.accountId, 'moderator'],
      [lapsed.accountId, 'subscriber'],
      [mod.accountId, 'moderator'],
      [subscriber.accountId, 'subscriber'],
    ] as const;
    /** One message of each sender, after the container's loads (without the 120 ms budget, as above). */
    const reviewAll = async () => {
      await runAsFunction(functionContext(chatReviewRow), () =>
        Promise.all([
          reviewSettings(roomArn, Date.now()),
          ...senders.map(([id, badge]) => senderStanding(roomArn, id, new Set([badge]), Date.now())),
        ]),
      );
      return Promise.all(
        senders.map(([UserId, badges]) =>
          runAsFunction(functionContext(chatReviewRow), () =>
            handler({ Content: 'hi', RoomArn: roomArn, Sender: { UserId, Attributes: { badges } } }),
          ),
        ),
      );
    };
    // The container may hold the settings of before for up to SETTINGS_TTL_MS.
    let answers = await reviewAll();
    for (const deadline = Date.now() + SETTINGS_TTL_MS + 5_000; Date.now() < deadline; ) {
      if (answers[3]?.ReviewResult === 'ALLOW' && answers[1]?.ReviewResult === 'DENY') break;
      await new Promise((r) => setTimeout(r, 500));
      answers = await reviewAll();
    }
    expect(answers).toEqual([
      { ReviewResult: 'DENY', Attributes: { Reason: 'subscribers_only' } },
      { ReviewResult: 'DENY', Attributes: { Reason: 'subscribers_only' } },
      { ReviewResult: 'ALLOW' },
      { ReviewResult: 'ALLOW' },
    ]);
    await api.put('/studio/chat/settings', { token: creator.token, body: {} });
  });

  it('deleting a message goes to IVS Chat with its reason; every action is recorded and announced as an event', async () => {
    const watcher = await join(await token());
    const res = await api.delete('/studio/chat/messages/QpUjHvz7Vcc7?reason=spoiler', {
      token: creator.token,
    });
    expect(res.status).toBe(204);
    expect((await watcher.next(eventNamed('aws:DELETE_MESSAGE'))).Attributes).toMatchObject({
      MessageId: 'QpUjHvz7Vcc7',
      Reason: 'spoiler',
    });
    watcher.close();
    const events = async (type: string) => {
      const r = await fetch(`${process.env.EVENTS_ENDPOINT}/_local/events?detail-type=${type}`);
      return (
        (await r.json()) as {
          events: Array<{ detail: { creator_id: string; data: Record<string, unknown> } }>;
        }
      ).events.filter((e) => e.detail.creator_id === creator.creatorId);
    };
    await waitFor(
      async () => (await events('chat.message_deleted')).length > 0,
      'chat.message_deleted',
      30_000,
    );
    expect((await events('chat.message_deleted'))[0]?.detail.data).toMatchObject({
      by: creator.creatorId,
      message_id: 'QpUjHvz7Vcc7',
      reason: 'spoiler',
    });
    for (const type of [
      'chat.user_banned',
      'chat.user_unbanned',
      'chat.moderator_added',
      'chat.moderator_removed',
      'chat.settings_changed',
    ])
      await waitFor(async () => (await events(type)).length > 0, type, 30_000);
  });

  it('a moderator the creator banned moderates nothing: settings, bans, lifting their own ban and deletions are 403 (were 2xx); another moderator cannot lift it', async () => {
    const mod = await viewer();
    const other = await viewer();
    const as = { token: mod.token };
    const channel = `?channel=${creator.creatorId}`;
    expect((await api.put(`/studio/chat/moderators/${mod.accountId}`, { token: creator.token })).status).toBe(
      200,
    );
    const banned = await api.post('/studio/chat/bans', {
      token: creator.token,
      body: { account_id: mod.accountId, duration_seconds: null, reason: 'abuse' },
    });
    expect(banned.status).toBe(201);
    for (const res of [
      await api.put(`/studio/chat/settings${channel}`, { ...as, body: { slow_mode_seconds: 600 } }),
      await api.post(`/studio/chat/bans${channel}`, {
        ...as,
        body: { account_id: other.accountId, duration_seconds: null, reason: 'revenge' },
      }),
      await api.delete(`/studio/chat/bans/${mod.accountId}${channel}`, as),
      await api.delete(`/studio/chat/messages/QpUjHvz7Vcc7${channel}`, as),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.message).toBe('You are banned from this chat');
    }
    // Nothing changed: the settings are the creator's, the other viewer may chat, the ban holds.
    expect((await token(other)).status).toBe(200);
    expect((await token(mod)).status).toBe(403);
    // Another moderator cannot lift it: a moderator's ban is the creator's to make, and to lift (it
    // was 204, and the banned moderator, still one, moderated again).
    const ally = await viewer();
    expect(
      (await api.put(`/studio/chat/moderators/${ally.accountId}`, { token: creator.token })).status,
    ).toBe(200);
    const lifted = await api.delete(`/studio/chat/bans/${mod.accountId}${channel}`, { token: ally.token });
    expect([lifted.status, lifted.body?.message]).toEqual([
      403,
      'Only the creator may lift a moderator’s ban',
    ]);
    expect((await token(mod)).status).toBe(403);
    await api.delete(`/studio/chat/moderators/${ally.accountId}`, { token: creator.token });
    // Lifted by the creator, the moderator moderates again.
    expect((await api.delete(`/studio/chat/bans/${mod.accountId}`, { token: creator.token })).status).toBe(
      204,
    );
    expect((await api.put(`/studio/chat/settings${channel}`, { ...as, body: {} })).status).toBe(200);
    await api.delete(`/studio/chat/moderators/${mod.accountId}`, { token: creator.token });
  });

  it('a token issued before a ban still connects (IVS Chat cannot revoke it), but the review refuses its messages: banned (were delivered)', async () => {
    const troll = await viewer();
    const early = await token(troll);
    expect(early.status).toBe(200);
    const ban = { account_id: troll.accountId, duration_seconds: null, reason: 'spam' };
    expect((await api.post('/studio/chat/bans', { token: creator.token, body: ban })).status).toBe(201);
    expect((await token(troll)).status).toBe(403);
    const socket = await join(early);
    // The served handler reads the sender's ban within its 120 ms budget; on a loaded machine the
    // first read can miss it (the room's fallback delivers), the next message finds it cached.
    let answer: ChatFrame | undefined;
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      answer = await say(socket, 'still here');
      if (answer.Type === 'ERROR') break;
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(answer).toMatchObject({ Type: 'ERROR', ErrorCode: 406, ErrorMessage: 'banned' });
    socket.close();
    expect((await api.delete(`/studio/chat/bans/${troll.accountId}`, { token: creator.token })).status).toBe(
      204,
    );
  });

  it("removing a moderator ends their open connection, whose token could still delete and disconnect (was kept for the session's hour)", async () => {
    const mod = await viewer();
    const bystander = await viewer();
    expect((await api.put(`/studio/chat/moderators/${mod.accountId}`, { token: creator.token })).status).toBe(
      200,
    );
    const issued = await token(mod);
    expect(issued.body.data.capabilities).toContain('DISCONNECT_USER');
    // A moderator's session is short (CHAT_MODERATOR_SESSION_MINUTES): a token fetched before the
    // removal and used after it (IVS Chat revokes no token) moderates for that long, not an hour.
    expect(CHAT_MODERATOR_SESSION_MINUTES).toBeLessThanOrEqual(10);
    expect(
      (Date.parse(issued.body.data.session_expires_at) - Date.now()) / 60_000,
      'minutes of session',
    ).toBeLessThanOrEqual(CHAT_MODERATOR_SESSION_MINUTES);
    const modSocket = await join(issued);
    const watcher = await join(await token(bystander));
    expect(
      (await api.delete(`/studio/chat/moderators/${mod.accountId}`, { token: creator.token })).status,
    ).toBe(204);
    await watcher.next(eventNamed('aws:DISCONNECT_USER', mod.accountId));
    expect((await modSocket.closed).code).toBe(1000);
    // Their next token is a viewer's.
    expect((await token(mod)).body.data.capabilities).toEqual(['SEND_MESSAGE']);
    watcher.close();
  });

  it('a message id IVS Chat would refuse (not 12 letters or digits) is a 400 naming it, never sent to IVS (was a 500)', async () => {
    for (const id of ['msg1', 'QpUjHvz7Vcc7x', 'QpUjHvz7Vc-7', '__proto__', '-1']) {
      const res = await api.delete(`/studio/chat/messages/${id}`, { token: creator.token });
      expect(res.status, id).toBe(400);
      expect(res.body, id).toMatchObject({ status: 'error', code: 400 });
      expect(res.body.message, id).toMatch(/message_id/);
    }
  });

  it('suspending the creator closes the room; lifting it opens a new one', async () => {
    // The operator's shell (these run outside any function): a region and the stand-in's dummy credentials.
    process.env.AWS_REGION ??= 'us-east-1';
    process.env.AWS_ACCESS_KEY_ID ??= 'local';
    process.env.AWS_SECRET_ACCESS_KEY ??= 'local';
    await suspendCreator(creator.creatorId, new Date());
    await expect(getRoom(roomArn)).rejects.toMatchObject({ name: 'ResourceNotFoundException' });
    await unsuspendCreator(creator.creatorId);
    const reopened = (await api.get('/studio/channel', { token: creator.token })).body.data.chat_room_arn;
    expect(reopened).toMatch(/:room\//);
    expect(reopened).not.toBe(roomArn);
    expect((await getRoom(reopened)).arn).toBe(reopened);
    expect((await token()).status).toBe(200);
  });
});

/** How a connection ended within `ms`, or `open` (the old code left it open for its session's hour). */
const endedWithin = (socket: Awaited<ReturnType<typeof connectChat>>, ms = 5000) =>
  Promise.race([
    socket.closed.then(({ code, reason }) => `closed ${code} ${reason}`),
    new Promise<string>((r) => setTimeout(() => r('open'), ms)),
  ]);

describe('ending an account\'s chat connections (docs/chat.md "Ending an account\'s connections")', () => {
  let jobs: Awaited<ReturnType<typeof startLocalAccountJobs>>;
  beforeAll(async () => {
    jobs = await startLocalAccountJobs();
  });
  afterAll(() => jobs.stop());

  it("DELETE /me ends the account's open chat connection at once, and the recheck one opened since with a token fetched before (were kept for the session's hour)", async () => {
    const leaver = await viewer();
    const bystander = await viewer();
    const fetchedAhead = await token(leaver);
    const socket = await join(await token(leaver));
    expect(await say(socket, 'before')).toMatchObject({
      Type: 'MESSAGE',
      Sender: { UserId: leaver.accountId },
    });
    const watcher = await join(await token(bystander));
    const deleted = await api.delete('/me', { token: leaver.token, body: { confirm: leaver.handle } });
    expect(deleted.status).toBe(202);
    expect(await endedWithin(socket)).toBe('closed 1000 Disconnected by moderator');
    await watcher.next(eventNamed('aws:DISCONNECT_USER', leaver.accountId));
    // A token fetched before the tombstone still connects (IVS Chat revokes no token) until the
    // recheck, which ends it (its wait elapses at once here).
    const late = await join(fetchedAhead);
    expect(await say(late, 'after')).toMatchObject({ Type: 'MESSAGE' });
    await jobs.drain({ elapse: true });
    expect(jobs.deadLetters()).toEqual([]);
    expect(await endedWithin(late)).toBe('closed 1000 Disconnected by moderator');
    watcher.close();
  }, 60_000);

  /** What ends the account's other sessions: each also ends its chat connections (signOutEverywhere). */
  const signOuts: Array<[string, (victim: Awaited<ReturnType<typeof viewer>>) => Promise<void>]> = [
    [
      'DELETE /me/sessions',
      async (victim) => {
        const out = await api.delete('/me/sessions', { token: victim.token });
        expect([out.status, out.body.data?.sessions_revoked]).toEqual([200, 1]);
      },
    ],
    [
      'POST /me/password',
      async (victim) => {
        const body = { current_password: 'correct-horse-1', new_password: 'a-new-long-passphrase' };
        const out = await api.post('/me/password', { token: victim.token, body });
        expect([out.status, out.body.data?.sessions_revoked]).toEqual([200, 1]);
      },
    ],
    [
      'POST /auth/password/reset',
      async (victim) => {
        const code = await askResetCode(api, victim.email);
        const body = { email: victim.email, code, new_password: 'a-new-long-passphrase' };
        expect((await api.post('/auth/password/reset', fromNewAddress({ body }))).status).toBe(204);
      },
    ],
  ];
  it.each(signOuts)(
    "%s ends every chat connection of the account, and a signed-out session's access token gets no new chat token: a taken-over account's other session chats no more (was kept for the session's hour, and came back)",
    async (way, signOut) => {
      const victim = await viewer();
      const signIn = await api.post(
        '/auth/login',
        fromNewAddress({ body: { email: victim.email, password: 'correct-horse-1' } }),
      );
      expect(signIn.status).toBe(200);
      const attacker = { token: signIn.body.data.auth_token as string };
      const socket = await join(await token(attacker));
      expect(await say(socket, 'as them')).toMatchObject({
        Type: 'MESSAGE',
        Sender: { UserId: victim.accountId },
      });
      const fetchedAhead = await token(attacker);
      await signOut(victim);
      expect(await endedWithin(socket)).toBe('closed 1000 Disconnected by moderator');
      // Its access token stays valid up to 15 minutes; the chat token route asks its session.
      const again = await token(attacker);
      expect([again.status, again.body.message]).toEqual([401, 'This session was signed out: sign in again']);
      // The caller's own session (kept, but by a reset) chats again with a new token.
      expect((await token(victim)).status).toBe(way === 'POST /auth/password/reset' ? 401 : 200);
      // A token the signed-out session fetched just before still connects (IVS Chat revokes no
      // token; it is valid a minute) until the recheck ends it (its wait elapses at once here).
      const late = await join(fetchedAhead);
      expect(await say(late, 'still them')).toMatchObject({ Type: 'MESSAGE' });
      await jobs.drain({ elapse: true });
      expect(jobs.deadLetters()).toEqual([]);
      expect(await endedWithin(late)).toBe('closed 1000 Disconnected by moderator');
    },
    60_000,
  );

  /** The session (refresh family) an access token was issued for: its `sid`. */
  const sessionOf = (accessToken: string): string =>
    JSON.parse(Buffer.from(accessToken.split('.')[1] ?? '', 'base64url').toString()).sid;

  const signInAgain = async (who: { email: string }) => {
    const res = await api.post(
      '/auth/login',
      fromNewAddress({ body: { email: who.email, password: 'correct-horse-1' } }),
    );
    expect(res.status).toBe(200);
    return { token: res.body.data.auth_token as string };
  };

  it("signing out the other sessions leaves the caller's own chat connection alone where no other session holds a token (was ended too)", async () => {
    const owner = await viewer();
    await signInAgain(owner);
    const mine = await join(await token(owner));
    const out = await api.delete('/me/sessions', { token: owner.token });
    expect([out.status, out.body.data?.sessions_revoked]).toEqual([200, 1]);
    await jobs.drain({ elapse: true });
    expect(jobs.deadLetters()).toEqual([]);
    expect(await say(mine, 'still here')).toMatchObject({
      Type: 'MESSAGE',
      Sender: { UserId: owner.accountId },
    });
    mine.close();
  }, 60_000);

  it("the recheck leaves the kept session's new connection alone when the signed-out session's token is too old to connect (one disconnect, not two)", async () => {
    const owner = await viewer();
    const other = await signInAgain(owner);
    const room = (await api.get('/studio/channel', { token: creator.token })).body.data.chat_room_arn;
    // The other session got its token for this room ten minutes ago: connected then, if at all.
    const tenMinutesAgo = new Date(Date.now() - 600_000);
    await recordChatToken(
      owner.accountId,
      sessionOf(other.token),
      room,
      tenMinutesAgo,
      new Date(Date.now() + 3_000_000),
    );
    const first = await join(await token(owner));
    const out = await api.delete('/me/sessions', { token: owner.token });
    expect([out.status, out.body.data?.sessions_revoked]).toEqual([200, 1]);
    expect(await endedWithin(first)).toBe('closed 1000 Disconnected by moderator');
    const again = await join(await token(owner));
    await jobs.drain({ elapse: true });
    expect(jobs.deadLetters()).toEqual([]);
    expect(await say(again, 'still here')).toMatchObject({
      Type: 'MESSAGE',
      Sender: { UserId: owner.accountId },
    });
    again.close();
  }, 60_000);

  it("DELETE /me/sessions/{id} ends that session's chat connection, and the recheck one it opens with a token fetched before (were kept for the session's hour)", async () => {
    const owner = await viewer();
    const other = await signInAgain(owner);
    const theirs = await join(await token(other));
    const fetchedAhead = await token(other);
    const out = await api.delete(`/me/sessions/${sessionOf(other.token)}`, { token: owner.token });
    expect(out.status).toBe(204);
    expect(await endedWithin(theirs)).toBe('closed 1000 Disconnected by moderator');
    const again = await token(other);
    expect([again.status, again.body.message]).toEqual([401, 'This session was signed out: sign in again']);
    const late = await join(fetchedAhead);
    expect(await say(late, 'still them')).toMatchObject({ Type: 'MESSAGE' });
    await jobs.drain({ elapse: true });
    expect(jobs.deadLetters()).toEqual([]);
    expect(await endedWithin(late)).toBe('closed 1000 Disconnected by moderator');
  }, 60_000);

  it('a pass that fails in a room throws, so SQS delivers it again (then dead-letters it): here IVS Chat refuses the room ARN', async () => {
    const owner = await viewer();
    // Within the worker's grant (this stack's rooms), but not an ARN IVS Chat accepts (ValidationException).
    const foreign = 'arn:aws:ivschat:us-east-1:000000000000:room/not_an_id';
    await recordChatToken(owner.accountId, undefined, foreign, new Date(), new Date(Date.now() + 3_600_000));
    const job = {
      kind: 'end-chat' as const,
      account_id: owner.accountId,
      since: new Date().toISOString(),
      reason: 'signedOut' as const,
      recheck: false,
    };
    const { runAccountJob } = await import('../../shared/accounts/run-job.ts');
    await expect(
      runAsFunction(functionContext(accountJobsRow), () => runAccountJob(job, new Date())),
    ).rejects.toThrow('DisconnectUser failed in 1 of 1 rooms');
  }, 60_000);
});

describe('rooms for channels made before chat: `npm run operator -- chat-room` (docs/chat.md "Rooms")', () => {
  /**
   * The operator's shell: this run's table (DynamoDB Local) and the stand-in's port as `npm start`
   * names it (IVSCHAT_PORT), no endpoint variable: the command must find the stand-in itself and
   * never reach for IVS Chat on AWS.
   */
  const operatorEnv = () => {
    const { AWS_ENDPOINT_URL_IVSCHAT: endpoint, ...env } = process.env;
    return { ...env, TABLE_NAME: tableName(), IVSCHAT_PORT: new URL(endpoint!).port };
  };
  /** The operator's command in its own process, against this run's table and IVS Chat stand-in. */
  const operator = async (args: string[]) => {
    try {
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ['--import', 'tsx', 'scripts/operator.ts', ...args],
        { cwd: resolve(import.meta.dirname, '../..'), env: operatorEnv() },
      );
      return { code: 0, stdout };
    } catch (error) {
      const e = error as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: `${e.stdout}${e.stderr}` };
    }
  };
  const roomOf = async (c: StudioCreator) =>
    (await api.get('/studio/channel', { token: c.token })).body.data.chat_room_arn as string | null;

  it('gives a channel without a room its room (handler, fallback, logging, tags), once; `all` skips suspended creators', async () => {
    process.env.AWS_REGION ??= 'us-east-1';
    process.env.AWS_ACCESS_KEY_ID ??= 'local';
    process.env.AWS_SECRET_ACCESS_KEY ??= 'local';
    const [early, suspended] = [await studioCreator(api, 'music'), await studioCreator(api, 'music')];
    for (const c of [early, suspended])
      expect((await api.post('/studio/channel', { token: c.token })).status).toBe(201);
    // Channels as they were before live chat: no room.
    await closeChatRoom(early.creatorId);
    await suspendCreator(suspended.creatorId, new Date()); // its room closes with the suspension
    expect(await roomOf(early)).toBeNull();
    expect(
      (await api.post(`/creators/${early.creatorId}/channel/chat/token`, fromNewAddress({}))).status,
    ).toBe(404);

    const one = await operator(['chat-room', early.creatorId]);
    expect(one).toEqual({ code: 0, stdout: `chat-room: ${early.creatorId}: created\n` });
    const made = await roomOf(early);
    expect(await getRoom(made!)).toMatchObject({
      name: early.creatorId,
      messageReviewHandler: { uri: expect.stringMatching(/chat-review-message$/), fallbackResult: 'ALLOW' },
      loggingConfigurationIdentifiers: [expect.stringMatching(/:logging-configuration\//)],
      tags: { creator_id: early.creatorId, stage: 'local' },
    });
    // Once: a second run leaves the room as it is (the command's write, in process here: each
    // command run is a Node process of its own, ~30-60 s on this loaded machine).
    expect(await ensureChatRoom(early.creatorId)).toBe('exists');
    expect(await roomOf(early)).toBe(made);
    // The token route serves the new room.
    expect(
      (await api.post(`/creators/${early.creatorId}/channel/chat/token`, fromNewAddress({}))).status,
    ).toBe(200);

    // Every channel without a room: this one again, not the suspended creator's. `all` visits the
    // `channels` list, which the projector keeps: wait until it has both changes.
    await closeChatRoom(early.creatorId);
    expect(await ensureChatRoom(suspended.creatorId)).toBe('suspended');
    await waitFor(async () => {
      const channels: string[] = [];
      for await (const id of allRankedIds(CREATOR_LISTS.channels)) channels.push(id);
      return channels.includes(early.creatorId) && !channels.includes(suspended.creatorId);
    }, 'the channels list with the new channel and without the suspended one');
    const all = await operator(['chat-room', 'all']);
    expect(all.code, all.stdout).toBe(0);
    expect(all.stdout).toContain(`  ${early.creatorId}: created\n`);
    expect(all.stdout).not.toContain(suspended.creatorId);
    expect(all.stdout).toMatch(/^chat-room: \d+ room\(s\) created$/m);
    expect(await roomOf(early)).toMatch(/:room\//);
  }, 400_000);
});
