import { CreateChatTokenCommand, CreateRoomCommand, IvschatClient } from '@aws-sdk/client-ivschat';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { type IvsChatStandIn, startIvsChatStandIn } from '../../scripts/local/ivschat/server.ts';
import { invokeLocalFunction, localFunctionArn, serveLocalFunction } from '../../scripts/local/lambda.ts';
import type { WorkerRow } from '../../shared/routing/function-row.ts';

/**
 * How the local platform connects the stand-in (scripts/local/platform.ts): functions find it
 * through AWS_ENDPOINT_URL_IVSCHAT, with no endpoint in code, and it invokes a room's review
 * handler through the local Lambda service, which runs it as its function.
 */

let chat: IvsChatStandIn;
beforeAll(async () => {
  chat = await startIvsChatStandIn({ invoke: invokeLocalFunction });
});
afterAll(() => chat.stop());
afterEach(() => {
  vi.unstubAllEnvs();
});

const reviewRow = {
  trigger: '$ivschat/review-test',
  handler: 'chat/review-test',
  summary: 'a review handler of the test',
} as const satisfies WorkerRow;

it('is found by @aws-sdk/client-ivschat through AWS_ENDPOINT_URL_IVSCHAT', async () => {
  vi.stubEnv('AWS_ENDPOINT_URL_IVSCHAT', chat.endpoint);
  const client = new IvschatClient({
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const room = await client.send(new CreateRoomCommand({ name: 'found-by-env' }));
  expect(chat.state.rooms.get(room.arn!)?.name).toBe('found-by-env');
  client.destroy();
});

it("invokes a room's review handler as its function, under its local ARN", async () => {
  const seen: Array<{ region?: string; content: string }> = [];
  const arn = serveLocalFunction(reviewRow, async (event: { Content: string }) => {
    // Inside the invocation, process.env is the function's own environment.
    seen.push({ region: process.env.AWS_REGION, content: event.Content });
    return { ReviewResult: 'ALLOW', Content: event.Content.toUpperCase() };
  });
  expect(arn).toBe(localFunctionArn(reviewRow));
  expect(arn).toMatch(/^arn:aws:lambda:[a-z0-9-]+:[0-9]{12}:function:.+/);
  await expect(invokeLocalFunction(`${arn}-missing`, {})).rejects.toMatchObject({
    name: 'ResourceNotFoundException',
  });

  const client = new IvschatClient({
    endpoint: chat.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const room = await client.send(new CreateRoomCommand({ messageReviewHandler: { uri: arn } }));
  const { token } = await client.send(
    new CreateChatTokenCommand({ roomIdentifier: room.arn, userId: 'ac_1', capabilities: ['SEND_MESSAGE'] }),
  );
  const socket = new WebSocket(chat.messagingEndpoint, token);
  await new Promise((resolve) => socket.on('open', resolve));
  const frame = new Promise<Record<string, unknown>>((resolve) =>
    socket.on('message', (data) => resolve(JSON.parse(data.toString()))),
  );
  socket.send(JSON.stringify({ Action: 'SEND_MESSAGE', RequestId: 'r', Content: 'shout' }));
  expect(await frame).toMatchObject({ Type: 'MESSAGE', Content: 'SHOUT' });
  expect(seen).toEqual([{ region: 'local', content: 'shout' }]);
  socket.close();
  client.destroy();
});
