import {
  CreateChatTokenCommand,
  CreateRoomCommand,
  type CreateRoomCommandInput,
  DeleteMessageCommand,
  DeleteRoomCommand,
  DisconnectUserCommand,
  IvschatClient,
  SendEventCommand,
} from '@aws-sdk/client-ivschat';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ChatFrame, connectChat } from '../support/chat-socket.ts';
import type { ReviewRequest } from '../../scripts/local/ivschat/review.ts';
import { type IvsChatStandIn, startIvsChatStandIn } from '../../scripts/local/ivschat/server.ts';

/**
 * The IVS Chat messaging WebSocket of the stand-in, as a client app uses it: tokens from the
 * real @aws-sdk/client-ivschat, connections with `ws` (the token as the subprotocol), the
 * documented actions and frames, the room's limits and the message review handler.
 */

type Frame = ChatFrame;
const reviews: ReviewRequest[] = [];
/** The local "Lambda service" the stand-in invokes review handlers through, by function ARN. */
const functions: Record<string, (request: ReviewRequest) => Promise<unknown>> = {};
const fn = (name: string) => `arn:aws:lambda:us-east-1:000000000000:function:${name}`;
let clockOffsetMs = 0;
let chat: IvsChatStandIn;
let client: IvschatClient;
const logged: string[] = [];

beforeAll(async () => {
  chat = await startIvsChatStandIn({
    now: () => Date.now() + clockOffsetMs,
    invoke: async (arn, payload) => {
      reviews.push(payload as ReviewRequest);
      const handler = functions[arn];
      if (!handler) throw new Error(`no function ${arn}`);
      return handler(payload as ReviewRequest);
    },
    log: (line) => logged.push(line),
  });
  client = new IvschatClient({
    endpoint: chat.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
  functions[fn('deny-bad')] = async ({ Content }) =>
    Content.includes('bad')
      ? { ReviewResult: 'DENY', Attributes: { Reason: 'blocked term: bad' } }
      : { ReviewResult: 'ALLOW', Content: `${Content} [reviewed]` };
  // Late answers that contradict the room's fallback: the fallback's result shows the late one was
  // not waited for, whatever the machine's load (both timers run in this process, 200 ms first).
  functions[fn('slow-allow')] = () =>
    new Promise((resolve) => setTimeout(() => resolve({ ReviewResult: 'ALLOW' }), 1_000));
  functions[fn('slow-deny')] = () =>
    new Promise((resolve) =>
      setTimeout(() => resolve({ ReviewResult: 'DENY', Attributes: { Reason: 'late' } }), 1_000),
    );
  functions[fn('throws')] = async () => {
    throw new Error('review failed');
  };
  functions[fn('malformed')] = async () => ({ ReviewResult: 'MAYBE' });
});
afterAll(async () => {
  client.destroy();
  await chat.stop();
});

const room = async (input: CreateRoomCommandInput = {}) =>
  (await client.send(new CreateRoomCommand(input))).arn!;

const token = async (
  roomArn: string,
  userId: string,
  capabilities: string[] = ['SEND_MESSAGE'],
  attributes = {},
) =>
  (
    await client.send(
      new CreateChatTokenCommand({
        roomIdentifier: roomArn,
        userId,
        capabilities: capabilities as never,
        attributes,
      }),
    )
  ).token!;

/** Opens a connection as the messaging SDK does (test/support/chat-socket.ts). */
const connect = (chatToken: string) => connectChat(chat.messagingEndpoint, chatToken);

const byRequest = (requestId: string) => (frame: Frame) => frame.RequestId === requestId;
const settle = () => new Promise((resolve) => setTimeout(resolve, 150));

describe('connecting', () => {
  it('takes a token once: a second connection with it is refused', async () => {
    const roomArn = await room();
    const chatToken = await token(roomArn, 'ac_1');
    const first = await connect(chatToken);
    await expect(connect(chatToken)).rejects.toThrow('HTTP 401');
    await expect(connect('AQICAHnot-a-token')).rejects.toThrow('HTTP 401');
    first.close();
  });

  it('refuses a token after its expiry time, and a token for a deleted room', async () => {
    const roomArn = await room();
    const late = await token(roomArn, 'ac_1');
    clockOffsetMs = 61 * 60_000;
    try {
      await expect(connect(late)).rejects.toThrow('HTTP 401');
    } finally {
      clockOffsetMs = 0;
    }
    const orphan = await token(roomArn, 'ac_2');
    const connected = await connect(await token(roomArn, 'ac_3'));
    await client.send(new DeleteRoomCommand({ identifier: roomArn }));
    expect((await connected.closed).code).toBe(1000);
    await expect(connect(orphan)).rejects.toThrow('HTTP 404');
  });
});

describe('sessions', () => {
  it("ends a connection at its token's session duration with ERROR 401, then closes it", async () => {
    const roomArn = await room();
    const { token: chatToken } = await client.send(
      new CreateChatTokenCommand({ roomIdentifier: roomArn, userId: 'ac_1', sessionDurationInMinutes: 1 }),
    );
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const viewer = await connect(chatToken!);
      vi.advanceTimersByTime(59_000);
      expect(chat.messaging.connected(roomArn)).toEqual(['ac_1']);
      vi.advanceTimersByTime(1_000);
      expect(chat.messaging.connected(roomArn)).toEqual([]);
      vi.useRealTimers();
      expect(await viewer.next((f) => f.Type === 'ERROR')).toMatchObject({ ErrorCode: 401 });
      expect((await viewer.closed).code).toBe(1000);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('messages', () => {
  it('delivers a message to everyone in the room, the sender included, with its RequestId and sender', async () => {
    const roomArn = await room();
    const maya = await connect(await token(roomArn, 'ac_maya', ['SEND_MESSAGE'], { display_name: 'Maya' }));
    const leo = await connect(await token(roomArn, 'ac_leo', ['SEND_MESSAGE']));
    const reader = await connect(await token(roomArn, 'anon_1', []));
    maya.send({
      Action: 'SEND_MESSAGE',
      RequestId: 'r1',
      Content: 'hello 👋',
      Attributes: { emote: 'wave' },
    });
    const own = await maya.next(byRequest('r1'));
    expect(own).toMatchObject({
      Type: 'MESSAGE',
      Content: 'hello 👋',
      Attributes: { emote: 'wave' },
      Sender: { UserId: 'ac_maya', Attributes: { display_name: 'Maya' } },
    });
    expect(own.Id).toMatch(/^[a-zA-Z0-9]{12}$/);
    expect(new Date(String(own.SendTime)).getTime()).toBeGreaterThan(Date.now() - 5000);
    for (const other of [leo, reader])
      expect((await other.next((f) => f.Id === own.Id)).Content).toBe('hello 👋');

    leo.send({ Action: 'SEND_MESSAGE', RequestId: 'r2', Content: 'hi Maya' });
    expect(await maya.next(byRequest('r2'))).toMatchObject({
      Content: 'hi Maya',
      Sender: { UserId: 'ac_leo' },
    });
    for (const c of [maya, leo, reader]) c.close();
  });

  it('refuses a message without SEND_MESSAGE (403), bad requests (400), and keeps the room quiet', async () => {
    const roomArn = await room();
    const reader = await connect(await token(roomArn, 'anon_1', []));
    const writer = await connect(await token(roomArn, 'ac_1'));
    reader.send({ Action: 'SEND_MESSAGE', RequestId: 'ro', Content: 'let me speak' });
    expect(await reader.next(byRequest('ro'))).toMatchObject({ Type: 'ERROR', ErrorCode: 403 });
    writer.send({ Action: 'SEND_MESSAGE', RequestId: 'empty', Content: '' });
    writer.send({ Action: 'SHOUT', RequestId: 'unknown' });
    writer.send({ Action: 'SEND_MESSAGE', RequestId: 'attrs', Content: 'x', Attributes: { n: 1 } });
    for (const id of ['empty', 'unknown', 'attrs'])
      expect(await writer.next(byRequest(id))).toMatchObject({ Type: 'ERROR', ErrorCode: 400 });
    writer.send('not json');
    expect(await writer.next((f) => f.Type === 'ERROR' && f.RequestId === undefined)).toMatchObject({
      ErrorCode: 400,
    });
    await settle();
    expect(writer.frames.filter((f) => f.Type === 'MESSAGE')).toEqual([]);
    for (const c of [reader, writer]) c.close();
  });

  it("enforces the room's message length in characters (413)", async () => {
    const roomArn = await room({ maximumMessageLength: 5 });
    const writer = await connect(await token(roomArn, 'ac_1'));
    writer.send({ Action: 'SEND_MESSAGE', RequestId: 'fits', Content: '🎉🎉🎉🎉🎉' });
    expect(await writer.next(byRequest('fits'))).toMatchObject({ Type: 'MESSAGE' });
    writer.send({ Action: 'SEND_MESSAGE', RequestId: 'long', Content: 'sixsix' });
    expect(await writer.next(byRequest('long'))).toMatchObject({ Type: 'ERROR', ErrorCode: 413 });
    writer.close();
  });

  it("enforces the room's message rate across its clients (429)", async () => {
    const roomArn = await room({ maximumMessageRatePerSecond: 2 });
    const a = await connect(await token(roomArn, 'ac_a'));
    const b = await connect(await token(roomArn, 'ac_b'));
    a.send({ Action: 'SEND_MESSAGE', RequestId: 'a1', Content: 'one' });
    b.send({ Action: 'SEND_MESSAGE', RequestId: 'b1', Content: 'two' });
    await a.next(byRequest('b1'));
    a.send({ Action: 'SEND_MESSAGE', RequestId: 'a2', Content: 'three' });
    expect(await a.next(byRequest('a2'))).toMatchObject({ Type: 'ERROR', ErrorCode: 429 });
    expect(b.frames.some((f) => f.RequestId === 'a2')).toBe(false);
    a.close();
    b.close();
  });
});

describe('moderation', () => {
  it('deletes a message with DELETE_MESSAGE: every client gets the aws:DELETE_MESSAGE event', async () => {
    const roomArn = await room();
    const creator = await connect(await token(roomArn, 'ac_creator', ['SEND_MESSAGE', 'DELETE_MESSAGE']));
    const viewer = await connect(await token(roomArn, 'ac_viewer'));
    viewer.send({ Action: 'SEND_MESSAGE', RequestId: 'm', Content: 'spam' });
    const message = await creator.next(byRequest('m'));
    viewer.send({ Action: 'DELETE_MESSAGE', RequestId: 'nope', Id: message.Id });
    expect(await viewer.next(byRequest('nope'))).toMatchObject({ Type: 'ERROR', ErrorCode: 403 });
    creator.send({ Action: 'DELETE_MESSAGE', RequestId: 'del', Id: message.Id, Reason: 'spam' });
    for (const c of [creator, viewer])
      expect(await c.next(byRequest('del'))).toMatchObject({
        Type: 'EVENT',
        EventName: 'aws:DELETE_MESSAGE',
        Attributes: { MessageId: message.Id, MessageID: message.Id, Reason: 'spam' },
      });
    // The same through the API, as the back end does it.
    const { id } = await client.send(
      new DeleteMessageCommand({ roomIdentifier: roomArn, id: String(message.Id) }),
    );
    expect(await viewer.next((f) => f.Id === id)).toMatchObject({ EventName: 'aws:DELETE_MESSAGE' });
    creator.close();
    viewer.close();
  });

  it('disconnects every connection of a user with DISCONNECT_USER, and through the API', async () => {
    const roomArn = await room();
    const creator = await connect(await token(roomArn, 'ac_creator', ['DISCONNECT_USER']));
    const troll = await connect(await token(roomArn, 'ac_troll'));
    const trollAgain = await connect(await token(roomArn, 'ac_troll'));
    const bystander = await connect(await token(roomArn, 'ac_ok'));
    bystander.send({ Action: 'DISCONNECT_USER', RequestId: 'no', UserId: 'ac_troll' });
    expect(await bystander.next(byRequest('no'))).toMatchObject({ Type: 'ERROR', ErrorCode: 403 });
    creator.send({ Action: 'DISCONNECT_USER', RequestId: 'kick', UserId: 'ac_troll', Reason: 'banned' });
    expect(await creator.next(byRequest('kick'))).toMatchObject({
      Type: 'EVENT',
      EventName: 'aws:DISCONNECT_USER',
      Attributes: { UserId: 'ac_troll', Reason: 'banned' },
    });
    expect((await troll.closed).code).toBe(1000);
    expect((await trollAgain.closed).code).toBe(1000);
    expect(chat.messaging.connected(roomArn).sort()).toEqual(['ac_creator', 'ac_ok']);

    await client.send(new DisconnectUserCommand({ roomIdentifier: roomArn, userId: 'ac_ok', reason: 'bye' }));
    expect((await bystander.closed).code).toBe(1000);
    creator.close();
  });

  it('sends an application event to the room with SendEvent', async () => {
    const roomArn = await room();
    const viewer = await connect(await token(roomArn, 'ac_1', []));
    const { id } = await client.send(
      new SendEventCommand({
        roomIdentifier: roomArn,
        eventName: 'chat:user_banned',
        attributes: { account_id: 'ac_2' },
      }),
    );
    expect(await viewer.next((f) => f.Id === id)).toMatchObject({
      Type: 'EVENT',
      EventName: 'chat:user_banned',
      Attributes: { account_id: 'ac_2' },
    });
    viewer.close();
  });
});

describe('message review handler', () => {
  it('is invoked before delivery with the documented payload; DENY answers 406 with the reason to the sender only', async () => {
    const roomArn = await room({ messageReviewHandler: { uri: fn('deny-bad'), fallbackResult: 'ALLOW' } });
    const sender = await connect(await token(roomArn, 'ac_s', ['SEND_MESSAGE'], { display_name: 'S' }));
    const other = await connect(await token(roomArn, 'ac_o'));
    sender.send({ Action: 'SEND_MESSAGE', RequestId: 'ok', Content: 'good words', Attributes: { k: 'v' } });
    const delivered = await other.next(byRequest('ok'));
    expect(delivered.Content).toBe('good words [reviewed]');
    expect(reviews.find((r) => r.MessageId === delivered.Id)).toEqual({
      Content: 'good words',
      MessageId: delivered.Id,
      RoomArn: roomArn,
      Attributes: { k: 'v' },
      Sender: {
        UserId: 'ac_s',
        Attributes: { display_name: 'S' },
        Ip: expect.stringMatching(/127\.0\.0\.1/),
      },
    });

    sender.send({ Action: 'SEND_MESSAGE', RequestId: 'no', Content: 'bad words' });
    expect(await sender.next(byRequest('no'))).toMatchObject({
      Type: 'ERROR',
      ErrorCode: 406,
      ErrorMessage: 'blocked term: bad',
    });
    await settle();
    expect(other.frames.some((f) => f.RequestId === 'no')).toBe(false);
    sender.close();
    other.close();
  });

  it('follows fallbackResult when the handler times out (200 ms), throws or answers nonsense', async () => {
    const cases = [
      { handler: 'slow-allow', fallbackResult: 'DENY', delivered: false },
      { handler: 'slow-deny', fallbackResult: 'ALLOW', delivered: true },
      { handler: 'throws', fallbackResult: 'DENY', delivered: false },
      { handler: 'throws', fallbackResult: 'ALLOW', delivered: true },
      { handler: 'malformed', fallbackResult: 'DENY', delivered: false },
      { handler: 'missing-function', fallbackResult: 'ALLOW', delivered: true },
    ] as const;
    for (const { handler, fallbackResult, delivered } of cases) {
      const roomArn = await room({ messageReviewHandler: { uri: fn(handler), fallbackResult } });
      const sender = await connect(await token(roomArn, 'ac_s'));
      sender.send({ Action: 'SEND_MESSAGE', RequestId: 'r', Content: 'hello' });
      const frame = await sender.next(byRequest('r'));
      const label = `${handler} ${fallbackResult}`;
      if (delivered) expect(frame, label).toMatchObject({ Type: 'MESSAGE', Content: 'hello' });
      else expect(frame, label).toMatchObject({ Type: 'ERROR', ErrorCode: 406 });
      sender.close();
    }
    expect(logged.some((line) => line.includes('no answer within 200 ms'))).toBe(true);
  });
});
