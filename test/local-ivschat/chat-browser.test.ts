import { CreateChatTokenCommand, CreateRoomCommand, IvschatClient } from '@aws-sdk/client-ivschat';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type IvsChatStandIn, startIvsChatStandIn } from '../../scripts/local/ivschat/server.ts';
import { type ChatPage, openChatPage } from '../support/chat-browser.ts';

/**
 * The official browser SDK, `amazon-ivs-chat-messaging`, in headless Chromium against the
 * stand-in: if the SDK IVS ships for web clients connects, sends, deletes and disconnects here,
 * our chat client code will against IVS. Each viewer is a `ChatRoom` of the page, whose token
 * provider asks the test (standing in for the back end's token route) for a token from the real
 * @aws-sdk/client-ivschat. test/chat/chat-browser.int.test.ts runs the same page against the
 * platform: our token route, review handler and ban.
 */

const CAPABILITIES: Record<string, Array<'SEND_MESSAGE' | 'DELETE_MESSAGE' | 'DISCONNECT_USER'>> = {
  creator: ['SEND_MESSAGE', 'DELETE_MESSAGE', 'DISCONNECT_USER'],
  maya: ['SEND_MESSAGE'],
  leo: ['SEND_MESSAGE'],
};

let chat: IvsChatStandIn;
let client: IvschatClient;
let page: ChatPage;
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
  // The back end's token route: the server decides the user's capabilities.
  page = await openChatPage(async (userId: string) => {
    const t = await client.send(
      new CreateChatTokenCommand({
        roomIdentifier: roomArn,
        userId,
        capabilities: CAPABILITIES[userId] ?? [],
        attributes: { display_name: userId.toUpperCase() },
      }),
    );
    return {
      token: t.token!,
      tokenExpirationTime: t.tokenExpirationTime?.toISOString(),
      sessionExpirationTime: t.sessionExpirationTime?.toISOString(),
    };
  });
});

afterAll(async () => {
  await page?.close();
  client?.destroy();
  await chat?.stop();
});

it('two viewers chat with the official SDK; the creator deletes a message and disconnects a viewer', async () => {
  for (const user of ['creator', 'maya', 'leo']) await page.call('join', chat.messagingEndpoint, user);

  const hello = await page.call<string>('say', 'maya', 'hello from Maya');
  const reply = await page.call<string>('say', 'leo', 'hi Maya!');
  await page.until(async () => (await page.seen('maya')).messages.length === 2, 'both messages at Maya');
  expect((await page.seen('maya')).messages).toEqual([
    { id: hello, content: 'hello from Maya', from: 'maya', name: 'MAYA' },
    { id: reply, content: 'hi Maya!', from: 'leo', name: 'LEO' },
  ]);
  expect((await page.seen('leo')).messages.map((m) => m.id)).toEqual([hello, reply]);

  // The review handler's DENY rejects the SDK's sendMessage promise with 406 and the reason.
  expect(await page.call('say', 'leo', 'spoiler: it was the butler')).toEqual({
    errorCode: 406,
    errorMessage: 'no spoilers',
  });

  expect(await page.call('remove', 'creator', reply, 'off topic')).toBe(reply);
  await page.until(async () => (await page.seen('maya')).deleted.includes(reply), 'the delete event at Maya');

  expect(await page.call('kick', 'creator', 'leo', 'banned')).toBe('leo');
  await page.until(async () => (await page.seen('leo')).state === 'disconnected', 'Leo disconnected');
  const leo = await page.seen('leo');
  expect(leo.reason).toBe('serverDisconnect');
  // A server disconnect is not a dropped connection: the SDK asks for no new token.
  expect(leo.tokens).toBe(1);
  expect((await page.seen('maya')).disconnected).toEqual(['leo']);
  expect(chat.messaging.connected(roomArn).sort()).toEqual(['creator', 'maya']);
});
