import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type WebSocket, WebSocketServer } from 'ws';
import { checkSignature } from './sigv4.ts';

/**
 * The local AWS AppSync Events stand-in on one port of 127.0.0.1 (docs/local-appsync-events.md),
 * the protocol of the Event API developer guide, for one API whose namespaces authorise:
 * - **connect and subscribe** with the API's Lambda authoriser (`AWS_LAMBDA`): the token in the
 *   `authorization` header (the `header-<base64url JSON>` subprotocol for the connection, the
 *   `authorization` object of each `subscribe`) goes to `authorizer` with the operation and the
 *   channel, as AppSync invokes the function; a refusal is `connection_error` (then close) or
 *   `subscribe_error`, `UnauthorizedException`;
 * - **publish** over HTTP (`POST /event`, `{ channel, events: [json text, ...] }`, 1 to 5 events)
 *   with IAM (`AWS_IAM`): SigV4 checked (./sigv4.ts), then `authorizePublish` evaluates the
 *   caller's policy for `appsync:EventPublish` on the namespace's ARN.
 * The WebSocket (`/event/realtime`, subprotocol `aws-appsync-event-ws`): `connection_init` ->
 * `connection_ack { connectionTimeoutMs }`, `ka` every `keepAliveMs`, `subscribe` ->
 * `subscribe_success` / `subscribe_error`, `data { id, event }` for each event published on a
 * channel the subscription matches (`/live/cr_1`, or a trailing `/*`), `unsubscribe` ->
 * `unsubscribe_success` / `unsubscribe_error`; anything else is an `error`.
 */

/** What AppSync sends a Lambda authoriser (AWS_LAMBDA auth mode). */
export interface AuthorizerEvent {
  authorizationToken: string;
  requestContext: {
    apiId: string;
    accountId: string;
    requestId: string;
    operation: 'EVENT_CONNECT' | 'EVENT_SUBSCRIBE' | 'EVENT_PUBLISH';
    channelNamespaceName?: string;
    channel?: string;
  };
  requestHeaders: Record<string, string>;
}

/** What a Lambda authoriser answers. */
export interface AuthorizerResult {
  isAuthorized: boolean;
  ttlOverride?: number;
  handlerContext?: Record<string, unknown>;
}

export interface AppSyncEventsStandInOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** The API id in ARNs and host names. */
  apiId?: string;
  /** The channel namespaces the API defines (default `live`). */
  namespaces?: readonly string[];
  /** The API's Lambda authoriser (connect, subscribe); without one, every token is refused. */
  authorizer?: (event: AuthorizerEvent) => Promise<AuthorizerResult>;
  /** IAM: may this caller (by access key id) do `action` on `resource`? Without it, no one may publish. */
  authorizePublish?: (request: { accessKeyId: string; action: string; resource: string }) => Promise<boolean>;
  /** The secret of an access key id (SigV4); default: `local` for every key, as the local functions' credentials. */
  secretOf?: (accessKeyId: string) => string | undefined;
  /** How often `ka` is sent (AppSync: every minute). */
  keepAliveMs?: number;
  /** The `connectionTimeoutMs` of `connection_ack` (AppSync: 300000). */
  connectionTimeoutMs?: number;
  now?: () => Date;
}

export interface PublishedEvent {
  channel: string;
  event: string;
  at: Date;
}

export interface AppSyncEventsStandIn {
  /** The HTTP endpoint (publish: `POST ${httpEndpoint}/event`). */
  httpEndpoint: string;
  /** The real-time endpoint (`new WebSocket(realtimeEndpoint, ['aws-appsync-event-ws', header])`). */
  realtimeEndpoint: string;
  /** `arn:aws:appsync:us-east-1:000000000000:apis/<id>`. */
  apiArn: string;
  /** Every event accepted, in order (for tests and `GET /_local/events`). */
  published: PublishedEvent[];
  /** Open connections now. */
  connections(): number;
  stop(): Promise<void>;
}

/** Quotas of AppSync Events the stand-in enforces (docs/realtime.md "Quotas"). */
export const LIMITS = {
  eventsPerPublish: 5,
  eventBytes: 240 * 1024,
  subscriptionsPerConnection: 100,
  channelSegments: 5,
  segmentChars: 50,
} as const;

const SUBPROTOCOL = 'aws-appsync-event-ws';
const ACCOUNT = '000000000000';
const REGION = 'us-east-1';

type Frame = Record<string, unknown>;
interface Subscription {
  channel: string;
}
interface Connection {
  socket: WebSocket;
  subscriptions: Map<string, Subscription>;
  keepAlive: NodeJS.Timeout;
}

/**
 * A channel path's segments, or an error message. AppSync: 1 to 5 segments of letters, digits and
 * dashes (no underscores), at most 50 characters each; a subscription may end in `/*`.
 */
export const channelSegments = (channel: string, wildcard: boolean): string[] | string => {
  if (!channel.startsWith('/')) return 'Channel must start with /';
  const segments = channel.slice(1).split('/');
  if (segments.length < 1 || segments.length > LIMITS.channelSegments)
    return `Channel must have 1 to ${LIMITS.channelSegments} segments`;
  for (const [i, segment] of segments.entries()) {
    if (wildcard && segment === '*' && i === segments.length - 1 && i > 0) continue;
    if (!/^[A-Za-z0-9-]{1,50}$/.test(segment)) return `Invalid channel segment '${segment}'`;
  }
  return segments;
};

/** Does the subscription channel (maybe ending in `/*`) match the published channel? */
export const matches = (subscribed: string, published: string): boolean =>
  subscribed.endsWith('/*') ? published.startsWith(subscribed.slice(0, -1)) : subscribed === published;

/** The `header-…` subprotocol's JSON (base64url), or undefined. */
const connectionHeader = (protocols: string[]): Record<string, string> | undefined => {
  const encoded = protocols.find((p) => p.startsWith('header-'))?.slice('header-'.length);
  if (!encoded) return undefined;
  try {
    const value = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as unknown;
    return value && typeof value === 'object' ? (value as Record<string, string>) : undefined;
  } catch {
    return undefined;
  }
};

const tokenOf = (headers: Record<string, unknown> | undefined): string | undefined => {
  const value = headers?.Authorization ?? headers?.authorization;
  return typeof value === 'string' && value !== '' ? value : undefined;
};

const readBody = async (req: IncomingMessage): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

const answer = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json', 'x-amzn-RequestId': randomUUID() });
  res.end(JSON.stringify(body));
};
const failure = (errorType: string, message: string) => ({ errors: [{ errorType, message }] });
const STATUS: Record<string, number> = {
  BadRequestException: 400,
  UnauthorizedException: 401,
  ForbiddenException: 403,
};

export const startAppSyncEventsStandIn = async (
  options: AppSyncEventsStandInOptions = {},
): Promise<AppSyncEventsStandIn> => {
  const apiId = options.apiId ?? 'localevents';
  const apiArn = `arn:aws:appsync:${REGION}:${ACCOUNT}:apis/${apiId}`;
  const namespaces = new Set(options.namespaces ?? ['live']);
  const now = options.now ?? (() => new Date());
  const keepAliveMs = options.keepAliveMs ?? 60_000;
  const connectionTimeoutMs = options.connectionTimeoutMs ?? 300_000;
  const secretOf = options.secretOf ?? (() => 'local');
  const published: PublishedEvent[] = [];
  const connections = new Set<Connection>();
  let host = '';

  const authorize = async (
    token: string | undefined,
    operation: AuthorizerEvent['requestContext']['operation'],
    channel?: string,
  ): Promise<boolean> => {
    if (!token || !options.authorizer) return false;
    try {
      const result = await options.authorizer({
        authorizationToken: token,
        requestContext: {
          apiId,
          accountId: ACCOUNT,
          requestId: randomUUID(),
          operation,
          ...(channel ? { channelNamespaceName: channel.split('/')[1], channel } : {}),
        },
        requestHeaders: {},
      });
      return result?.isAuthorized === true;
    } catch {
      // AppSync treats an authoriser that fails as a refusal.
      return false;
    }
  };

  const deliver = (channel: string, events: readonly string[]) => {
    const at = now();
    for (const event of events) published.push({ channel, event, at });
    for (const connection of connections)
      for (const [id, subscription] of connection.subscriptions)
        if (matches(subscription.channel, channel))
          for (const event of events) connection.socket.send(JSON.stringify({ type: 'data', id, event }));
  };

  /** The namespace of a valid channel, or the error AppSync answers. */
  const namespaceOf = (channel: unknown, wildcard: boolean): { namespace: string } | { error: string } => {
    if (typeof channel !== 'string') return { error: 'Channel is required' };
    const segments = channelSegments(channel, wildcard);
    if (typeof segments === 'string') return { error: segments };
    const namespace = segments[0] ?? '';
    if (!namespaces.has(namespace)) return { error: `Channel namespace '${namespace}' not found` };
    return { namespace };
  };

  const publishHttp = async (req: IncomingMessage, res: ServerResponse) => {
    const body = await readBody(req);
    const signature = await checkSignature(
      { method: req.method ?? 'POST', path: req.url ?? '/event', headers: req.headers, body },
      secretOf,
      now(),
    );
    if (!signature.ok)
      return answer(res, STATUS[signature.errorType] ?? 403, failure(signature.errorType, signature.message));
    let input: { channel?: unknown; events?: unknown };
    try {
      input = JSON.parse(body) as typeof input;
    } catch {
      return answer(res, 400, failure('BadRequestException', 'Request body is not JSON'));
    }
    const target = namespaceOf(input.channel, false);
    if ('error' in target) return answer(res, 400, failure('BadRequestException', target.error));
    const allowed = await (options.authorizePublish?.({
      accessKeyId: signature.accessKeyId,
      action: 'appsync:EventPublish',
      resource: `${apiArn}/channelNamespace/${target.namespace}`,
    }) ?? false);
    if (!allowed)
      return answer(
        res,
        401,
        failure(
          'UnauthorizedException',
          `Not authorized to perform appsync:EventPublish on ${apiArn}/channelNamespace/${target.namespace}`,
        ),
      );
    const events = input.events;
    if (!Array.isArray(events) || events.length < 1 || events.length > LIMITS.eventsPerPublish)
      return answer(
        res,
        400,
        failure('BadRequestException', `events must hold 1 to ${LIMITS.eventsPerPublish} JSON strings`),
      );
    const successful: Array<{ identifier: string; index: number }> = [];
    const failed: Array<{ identifier: string; index: number; code: number; message: string }> = [];
    const accepted: string[] = [];
    for (const [index, event] of events.entries()) {
      const identifier = randomUUID();
      let valid = typeof event === 'string' && Buffer.byteLength(event) <= LIMITS.eventBytes;
      if (valid) {
        try {
          JSON.parse(event as string);
        } catch {
          valid = false;
        }
      }
      if (valid) {
        successful.push({ identifier, index });
        accepted.push(event as string);
      } else
        failed.push({
          identifier,
          index,
          code: 400,
          message: 'Event must be a JSON string of at most 240 KB',
        });
    }
    deliver(String(input.channel), accepted);
    answer(res, 200, { failed, successful });
  };

  const server = createServer((req, res) => {
    void (async () => {
      try {
        const path = (req.url ?? '').split('?')[0];
        if (req.method === 'POST' && path === '/event') return await publishHttp(req, res);
        if (req.method === 'GET' && path === '/_local/events') return answer(res, 200, published.slice(-100));
        answer(res, 404, failure('NotFoundException', `No route at ${req.method} ${path}`));
      } catch (error) {
        console.error('AppSync Events stand-in error', error);
        answer(res, 500, failure('InternalFailureException', 'internal error'));
      }
    })();
  });

  const wss = new WebSocketServer({
    noServer: true,
    // AppSync answers with the event subprotocol; the header one only carries the authorisation.
    handleProtocols: (protocols) => (protocols.has(SUBPROTOCOL) ? SUBPROTOCOL : false),
  });

  const onFrame = async (connection: Connection, text: string) => {
    const send = (frame: Frame) => connection.socket.send(JSON.stringify(frame));
    let frame: Frame;
    try {
      frame = JSON.parse(text) as Frame;
    } catch {
      return send({
        type: 'error',
        errors: [{ errorType: 'BadRequestException', message: 'Message is not JSON' }],
      });
    }
    const id = typeof frame.id === 'string' ? frame.id : undefined;
    switch (frame.type) {
      case 'connection_init':
        return send({ type: 'connection_ack', connectionTimeoutMs });
      case 'subscribe': {
        const error = (errorType: string, message: string) =>
          send({ type: 'subscribe_error', id, errors: [{ errorType, message }] });
        if (!id) return error('BadRequestException', 'id is required');
        if (connection.subscriptions.has(id))
          return error('BadRequestException', `Subscription id ${id} is already in use`);
        if (connection.subscriptions.size >= LIMITS.subscriptionsPerConnection)
          return error('LimitExceededException', 'Too many subscriptions on this connection');
        const target = namespaceOf(frame.channel, true);
        if ('error' in target) return error('BadRequestException', target.error);
        const channel = String(frame.channel);
        if (
          !(await authorize(
            tokenOf(frame.authorization as Record<string, unknown>),
            'EVENT_SUBSCRIBE',
            channel,
          ))
        )
          return error('UnauthorizedException', 'You are not authorized to make this call.');
        connection.subscriptions.set(id, { channel });
        return send({ type: 'subscribe_success', id });
      }
      case 'unsubscribe':
        if (!id || !connection.subscriptions.delete(id))
          return send({
            type: 'unsubscribe_error',
            id,
            errors: [{ errorType: 'UnknownOperationError', message: 'Unknown subscription id' }],
          });
        return send({ type: 'unsubscribe_success', id });
      case 'publish':
        // This API's namespaces take publishes over HTTP with IAM only (docs/realtime.md).
        return send({
          type: 'publish_error',
          id,
          errors: [
            { errorType: 'UnauthorizedException', message: 'You are not authorized to make this call.' },
          ],
        });
      default:
        return send({
          type: 'error',
          id,
          errors: [
            {
              errorType: 'UnsupportedOperation',
              message: `${String(frame.type)} not supported through the realtime channel`,
            },
          ],
        });
    }
  };

  server.on('upgrade', (req, socket, head) => {
    const path = (req.url ?? '').split('?')[0];
    const protocols = String(req.headers['sec-websocket-protocol'] ?? '')
      .split(',')
      .map((p) => p.trim());
    if (path !== '/event/realtime' || !protocols.includes(SUBPROTOCOL)) {
      socket.end('HTTP/1.1 400 Bad Request\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      void (async () => {
        const header = connectionHeader(protocols);
        const frames: string[] = [];
        let connection: Connection | undefined;
        ws.on('message', (data) => {
          if (connection) void onFrame(connection, data.toString());
          else frames.push(data.toString());
        });
        if (!(await authorize(tokenOf(header), 'EVENT_CONNECT'))) {
          ws.send(
            JSON.stringify({
              type: 'connection_error',
              errors: [
                { errorType: 'UnauthorizedException', message: 'You are not authorized to make this call.' },
              ],
            }),
          );
          ws.close(1008, 'Unauthorized');
          return;
        }
        connection = {
          socket: ws,
          subscriptions: new Map(),
          keepAlive: setInterval(() => ws.send(JSON.stringify({ type: 'ka' })), keepAliveMs),
        };
        connection.keepAlive.unref();
        connections.add(connection);
        const open = connection;
        ws.on('close', () => {
          clearInterval(open.keepAlive);
          connections.delete(open);
        });
        for (const frame of frames.splice(0)) await onFrame(open, frame);
      })();
    });
  });

  await new Promise<void>((resolveListen) => server.listen(options.port ?? 0, '127.0.0.1', resolveListen));
  const { port } = server.address() as AddressInfo;
  host = `127.0.0.1:${port}`;
  return {
    httpEndpoint: `http://${host}`,
    realtimeEndpoint: `ws://${host}/event/realtime`,
    apiArn,
    published,
    connections: () => connections.size,
    stop: () =>
      new Promise<void>((resolveClose) => {
        for (const connection of connections) {
          clearInterval(connection.keepAlive);
          connection.socket.terminate();
        }
        wss.close();
        server.closeAllConnections();
        server.close(() => resolveClose());
      }),
  };
};
