import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMessaging, type MessagingServer } from './messaging.ts';
import type { Invoke } from './review.ts';
import { ERROR_STATUS, IvsChatError, IvsChatState, OPERATIONS } from './rooms.ts';

/**
 * The local Amazon IVS Chat stand-in on one port of 127.0.0.1 (docs/local-ivschat.md):
 * - the control plane for `@aws-sdk/client-ivschat` (`endpoint`, or AWS_ENDPOINT_URL_IVSCHAT):
 *   REST-JSON, `POST /<Operation>` with a JSON body, errors named by the `x-amzn-ErrorType`
 *   header with a `message` body and the model's members (./rooms.ts);
 * - the messaging WebSocket (`messagingEndpoint`, ws:// on the same port, where IVS has
 *   `wss://edge.ivschat.<region>.amazonaws.com`): ./messaging.ts.
 */

const readBody = async (req: IncomingMessage): Promise<unknown> => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new IvsChatError('ValidationException', 'request body is not JSON', { reason: 'OTHER' });
  }
};

const sendError = (res: ServerResponse, error: IvsChatError): void => {
  res.writeHead(ERROR_STATUS[error.type], {
    'content-type': 'application/json',
    'x-amzn-ErrorType': error.type,
    'x-amzn-RequestId': randomUUID(),
  });
  res.end(JSON.stringify({ message: error.message, ...error.members }));
};

export interface IvsChatStandInOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Runs a room's message review handler by its function ARN (the local Lambda service). */
  invoke?: Invoke;
  now?: () => number;
  /** The review handler's time limit (IVS: 200 ms); tests may lengthen it on a loaded machine. */
  reviewTimeoutMs?: number;
  log?: (line: string) => void;
}

export interface IvsChatStandIn {
  /** The control plane: `new IvschatClient({ endpoint })`, or AWS_ENDPOINT_URL_IVSCHAT. */
  endpoint: string;
  /** The messaging WebSocket endpoint: `new WebSocket(messagingEndpoint, token)`. */
  messagingEndpoint: string;
  state: IvsChatState;
  messaging: MessagingServer;
  stop(): Promise<void>;
}

export const startIvsChatStandIn = async (options: IvsChatStandInOptions = {}): Promise<IvsChatStandIn> => {
  const state = new IvsChatState();
  const now = options.now ?? Date.now;
  const messaging = createMessaging({
    state,
    invoke: options.invoke,
    now,
    reviewTimeoutMs: options.reviewTimeoutMs,
    log: options.log,
  });
  const server = createServer((req, res) => {
    void (async () => {
      const name = (req.url ?? '').slice(1).split('?')[0] ?? '';
      const op = Object.hasOwn(OPERATIONS, name) ? OPERATIONS[name] : undefined;
      try {
        if (req.method !== 'POST' || !op)
          throw new IvsChatError('ValidationException', `No operation at ${req.method} ${req.url}`, {
            reason: 'UNKNOWN_OPERATION',
          });
        const output = op.handle(await readBody(req), { state, messaging, now });
        res.writeHead(op.status, { 'content-type': 'application/json', 'x-amzn-RequestId': randomUUID() });
        res.end(op.status === 204 ? undefined : JSON.stringify(output));
      } catch (error) {
        if (error instanceof IvsChatError) return sendError(res, error);
        console.error('IVS Chat stand-in error', error);
        sendError(res, new IvsChatError('InternalServerException', 'internal error'));
      }
    })();
  });
  server.on('upgrade', (req, socket, head) => messaging.handleUpgrade(req, socket, head));
  await new Promise<void>((resolveListen) => server.listen(options.port ?? 0, '127.0.0.1', resolveListen));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    messagingEndpoint: `ws://127.0.0.1:${port}`,
    state,
    messaging,
    stop: () =>
      new Promise<void>((resolveClose) => {
        messaging.close();
        server.closeAllConnections();
        server.close(() => resolveClose());
      }),
  };
};
