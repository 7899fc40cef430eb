import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import {
  type AppSyncEventsStandIn,
  type AuthorizerEvent,
  startAppSyncEventsStandIn,
} from '../../scripts/local/appsync-events/server.ts';
import { PublishError, publishEvents } from '../../shared/realtime/event-api.ts';
import { connectEvents } from '../support/appsync-events.ts';

/**
 * The AppSync Events stand-in's protocol, driven by a `ws` client speaking the Event API's
 * WebSocket protocol and by the back end's own SigV4 publisher (shared/realtime/event-api.ts).
 * The authoriser admits token `viewer` to every channel but `/live/private`, which only `vip` may
 * subscribe to; only the access key `publisher` may publish (IAM).
 */
let events: AppSyncEventsStandIn;
const authorized: AuthorizerEvent[] = [];
beforeAll(async () => {
  events = await startAppSyncEventsStandIn({
    keepAliveMs: 200,
    authorizer: async (event) => {
      authorized.push(event);
      const { operation, channel } = event.requestContext;
      if (event.authorizationToken === 'boom') throw new Error('authoriser failed');
      if (event.authorizationToken === 'vip') return { isAuthorized: true };
      if (event.authorizationToken !== 'viewer') return { isAuthorized: false };
      return { isAuthorized: operation === 'EVENT_CONNECT' || channel !== '/live/private' };
    },
    authorizePublish: async ({ accessKeyId, action, resource }) =>
      accessKeyId === 'publisher' &&
      action === 'appsync:EventPublish' &&
      resource === `${events.apiArn}/channelNamespace/live`,
  });
  process.env.REALTIME_HTTP_URL = events.httpEndpoint;
});
afterAll(async () => {
  await events.stop();
});

const sockets: WebSocket[] = [];
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.terminate();
});

/** A client of the stand-in, closed after each test. */
const connect = async (token: string | undefined, protocols?: string[]) => {
  const client = await connectEvents(events.realtimeEndpoint, token, protocols);
  sockets.push(client.socket);
  return client;
};

const asPublisher = async <T>(fn: () => Promise<T>, key = 'publisher'): Promise<T> => {
  const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
  process.env.AWS_ACCESS_KEY_ID = key;
  process.env.AWS_SECRET_ACCESS_KEY = 'local';
  try {
    return await fn();
  } finally {
    process.env.AWS_ACCESS_KEY_ID = saved.id;
    process.env.AWS_SECRET_ACCESS_KEY = saved.secret;
  }
};

describe('the AppSync Events stand-in', () => {
  it('acknowledges connection_init with connectionTimeoutMs and keeps the connection alive with ka', async () => {
    const client = await connect('viewer');
    expect(client.socket.protocol).toBe('aws-appsync-event-ws');
    client.send({ type: 'connection_init' });
    expect(await client.next((f) => f.type === 'connection_ack')).toEqual({
      type: 'connection_ack',
      connectionTimeoutMs: 300000,
    });
    expect(await client.next((f) => f.type === 'ka')).toEqual({ type: 'ka' });
    expect(authorized.at(-1)?.requestContext.operation).toBe('EVENT_CONNECT');
  });

  it('refuses a connection without the event subprotocol, and one whose token the authoriser refuses', async () => {
    await expect(connect('viewer', ['graphql-ws'])).rejects.toThrow(/400/);
    const refused = await connect('nobody');
    const error = await refused.next((f) => f.type === 'connection_error');
    expect(error.errors).toEqual([expect.objectContaining({ errorType: 'UnauthorizedException' })]);
    expect(await refused.closed).toBe(1008);
    const failing = await connect('boom');
    await failing.next((f) => f.type === 'connection_error');
  });

  it('subscribes, delivers each published event as data with the JSON text, and unsubscribes', async () => {
    const client = await connect('viewer');
    client.send({
      type: 'subscribe',
      id: 's1',
      channel: '/live/cr-0001',
      authorization: { Authorization: 'viewer' },
    });
    expect(await client.next((f) => f.id === 's1')).toEqual({ type: 'subscribe_success', id: 's1' });
    client.send({
      type: 'subscribe',
      id: 's2',
      channel: '/live/*',
      authorization: { Authorization: 'viewer' },
    });
    await client.next((f) => f.type === 'subscribe_success' && f.id === 's2');
    const result = await asPublisher(() =>
      publishEvents('/live/cr-0001', [{ v: 1, kind: 'audience', watching: 3 }]),
    );
    expect(result).toEqual({ failed: [], successful: [{ identifier: expect.any(String), index: 0 }] });
    const data = await client.next((f) => f.type === 'data' && f.id === 's1');
    expect(JSON.parse(String(data.event))).toEqual({ v: 1, kind: 'audience', watching: 3 });
    await client.next((f) => f.type === 'data' && f.id === 's2');
    client.send({ type: 'unsubscribe', id: 's1' });
    expect(await client.next((f) => f.id === 's1')).toEqual({ type: 'unsubscribe_success', id: 's1' });
    client.send({ type: 'unsubscribe', id: 's1' });
    expect((await client.next((f) => f.id === 's1')).type).toBe('unsubscribe_error');
    await asPublisher(() => publishEvents('/live/cr-0001', [{ n: 2 }]));
    await client.next((f) => f.type === 'data' && f.id === 's2');
    expect(client.frames.filter((f) => f.type === 'data' && f.id === 's1')).toEqual([]);
  });

  it('answers subscribe_error for a refused channel, an unknown namespace, a bad channel and a reused id', async () => {
    const client = await connect('viewer');
    const subscribe = async (id: string, channel: string, token = 'viewer') => {
      client.send({ type: 'subscribe', id, channel, authorization: { Authorization: token } });
      return client.next((f) => f.id === id);
    };
    const refused = await subscribe('a', '/live/private');
    expect(refused).toMatchObject({
      type: 'subscribe_error',
      errors: [{ errorType: 'UnauthorizedException' }],
    });
    expect(authorized.at(-1)?.requestContext).toMatchObject({
      operation: 'EVENT_SUBSCRIBE',
      channel: '/live/private',
      channelNamespaceName: 'live',
    });
    expect(await subscribe('b', '/live/private', 'vip')).toEqual({ type: 'subscribe_success', id: 'b' });
    expect(await subscribe('c', '/chat/x')).toMatchObject({
      type: 'subscribe_error',
      errors: [{ errorType: 'BadRequestException' }],
    });
    expect(await subscribe('d', 'live/x')).toMatchObject({ type: 'subscribe_error' });
    expect(await subscribe('e', '/live/a/b/c/d/e/f')).toMatchObject({ type: 'subscribe_error' });
    expect(await subscribe('f', '/live/cr_0001')).toMatchObject({ type: 'subscribe_error' });
    expect(await subscribe('b', '/live/x')).toMatchObject({ type: 'subscribe_error' });
    client.send({ type: 'publish', id: 'p', channel: '/live/x', events: ['{}'] });
    expect(await client.next((f) => f.id === 'p')).toMatchObject({ type: 'publish_error' });
    client.send({ type: 'start', id: 'g' });
    expect(await client.next((f) => f.id === 'g')).toMatchObject({
      type: 'error',
      errors: [{ errorType: 'UnsupportedOperation' }],
    });
  });

  it('publishes over HTTP only with a valid signature of a caller IAM allows', async () => {
    const refused = await asPublisher(() => publishEvents('/live/cr-1', [{}]), 'someone-else').catch(
      (e) => e,
    );
    expect(refused).toBeInstanceOf(PublishError);
    expect(refused).toMatchObject({ status: 401, errorType: 'UnauthorizedException' });
    const forged = await asPublisher(async () => {
      process.env.AWS_SECRET_ACCESS_KEY = 'not-the-secret';
      return publishEvents('/live/cr-1', [{}]).catch((e) => e);
    });
    expect(forged).toMatchObject({ status: 403, errorType: 'ForbiddenException' });
    const unsigned = await fetch(`${events.httpEndpoint}/event`, {
      method: 'POST',
      body: JSON.stringify({ channel: '/live/x', events: ['{}'] }),
    });
    expect(unsigned.status).toBe(401);
    const tooMany = await asPublisher(() => publishEvents('/live/cr-1', [1, 2, 3, 4, 5, 6]).catch((e) => e));
    expect(tooMany).toMatchObject({ status: 400, errorType: 'BadRequestException' });
    const otherNamespace = await asPublisher(() => publishEvents('/chat/cr-1', [{}]).catch((e) => e));
    expect(otherNamespace).toMatchObject({ status: 400 });
  });
});
