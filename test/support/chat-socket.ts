import { DisconnectUserCommand, IvschatClient } from '@aws-sdk/client-ivschat';
import { onTestFinished, vi } from 'vitest';
import WebSocket from 'ws';

/** One frame of IVS Chat's messaging WebSocket (MESSAGE, EVENT, ERROR). */
export type ChatFrame = Record<string, unknown> & { Type: string };

/** A connection to a room as a chat client app holds it (test side). */
export interface ChatSocket {
  frames: ChatFrame[];
  /** Sends an action (SEND_MESSAGE, DELETE_MESSAGE, DISCONNECT_USER); a string is sent as it is. */
  send(action: Record<string, unknown> | string): void;
  /** The first frame (received so far or later) that matches. */
  next(match: (frame: ChatFrame) => boolean, timeoutMs?: number): Promise<ChatFrame>;
  closed: Promise<{ code: number; reason: string }>;
  close(): void;
}

/**
 * Opens the messaging WebSocket at `endpoint` (what the token route answers) with a chat token,
 * as the messaging SDK does: the token is the subprotocol.
 */
export const connectChat = (endpoint: string, token: string): Promise<ChatSocket> =>
  new Promise((resolve, reject) => {
    const socket = new WebSocket(endpoint, token);
    const frames: ChatFrame[] = [];
    const waiters = new Set<() => void>();
    socket.on('message', (data) => {
      frames.push(JSON.parse(data.toString()) as ChatFrame);
      for (const wake of waiters) wake();
    });
    const closed = new Promise<{ code: number; reason: string }>((done) =>
      socket.on('close', (code, reason) => done({ code, reason: reason.toString() })),
    );
    socket.on('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    socket.on('error', reject);
    socket.on('open', () =>
      resolve({
        frames,
        closed,
        send: (action) => socket.send(typeof action === 'string' ? action : JSON.stringify(action)),
        close: () => socket.close(),
        next: (match, timeoutMs = 5000) =>
          new Promise((found, fail) => {
            const check = () => {
              const frame = frames.find(match);
              if (!frame) return;
              waiters.delete(check);
              clearTimeout(timer);
              found(frame);
            };
            const timer = setTimeout(() => {
              waiters.delete(check);
              fail(new Error(`no matching frame in ${timeoutMs} ms; got ${JSON.stringify(frames)}`));
            }, timeoutMs);
            waiters.add(check);
            check();
          }),
      }),
    );
  });

/** The IVS Chat control plane the platform runs (AWS_ENDPOINT_URL_IVSCHAT), as an operator's shell reaches it. */
export const chatControl = (): IvschatClient =>
  new IvschatClient({
    endpoint: process.env.AWS_ENDPOINT_URL_IVSCHAT,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });

/**
 * The rooms IVS Chat DisconnectUser is called in for `accountId` (by any function of the test's
 * process) from now to the end of the current test.
 */
export const disconnectsOf = (accountId: string): string[] => {
  const rooms: string[] = [];
  const send = IvschatClient.prototype.send;
  const spy = vi.spyOn(IvschatClient.prototype, 'send').mockImplementation(function (
    this: IvschatClient,
    command: unknown,
    ...rest: unknown[]
  ) {
    if (command instanceof DisconnectUserCommand && command.input.userId === accountId)
      rooms.push(command.input.roomIdentifier ?? '');
    return (send as (...args: unknown[]) => unknown).call(this, command, ...rest);
  } as typeof send);
  onTestFinished(() => spy.mockRestore());
  return rooms;
};
