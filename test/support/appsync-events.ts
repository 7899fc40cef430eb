import WebSocket from 'ws';

/**
 * A test client of the AppSync Events WebSocket protocol (the `ws` package): connects with the
 * `aws-appsync-event-ws` and `header-<base64url>` subprotocols, keeps every frame, and waits for
 * the next frame matching a predicate (taking it off the list).
 */
export type Frame = Record<string, unknown> & { type: string };

export interface EventsClient {
  socket: WebSocket;
  frames: Frame[];
  next(match: (frame: Frame) => boolean, ms?: number): Promise<Frame>;
  send(frame: Record<string, unknown>): void;
  /** Subscribes and resolves with AppSync's answer (`subscribe_success` or `subscribe_error`). */
  subscribe(id: string, channel: string, token: string | undefined): Promise<Frame>;
  closed: Promise<number>;
  close(): void;
}

export const connectEvents = async (
  endpoint: string,
  token: string | undefined,
  protocols?: string[],
): Promise<EventsClient> => {
  const header = Buffer.from(
    JSON.stringify({ host: new URL(endpoint).host, ...(token ? { Authorization: token } : {}) }),
  ).toString('base64url');
  const socket = new WebSocket(endpoint, protocols ?? ['aws-appsync-event-ws', `header-${header}`]);
  const frames: Frame[] = [];
  const waiters: Array<{ match: (f: Frame) => boolean; resolve: (f: Frame) => void }> = [];
  socket.on('message', (data) => {
    const frame = JSON.parse(data.toString()) as Frame;
    const waiter = waiters.find((w) => w.match(frame));
    if (waiter) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(frame);
    } else frames.push(frame);
  });
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  const next = (match: (f: Frame) => boolean, ms = 3000) =>
    new Promise<Frame>((resolve, reject) => {
      const seen = frames.find(match);
      if (seen) {
        frames.splice(frames.indexOf(seen), 1);
        return resolve(seen);
      }
      const timer = setTimeout(() => {
        waiters.splice(waiters.indexOf(waiter), 1);
        reject(new Error(`no matching frame in ${ms} ms; frames: ${JSON.stringify(frames).slice(0, 500)}`));
      }, ms);
      const waiter = {
        match,
        resolve: (f: Frame) => {
          clearTimeout(timer);
          resolve(f);
        },
      };
      waiters.push(waiter);
    });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  const send = (frame: Record<string, unknown>) => socket.send(JSON.stringify(frame));
  return {
    socket,
    frames,
    next,
    send,
    closed,
    close: () => socket.terminate(),
    subscribe: (id, channel, subscribeToken) => {
      send({
        type: 'subscribe',
        id,
        channel,
        authorization: {
          host: new URL(endpoint).host,
          ...(subscribeToken ? { Authorization: subscribeToken } : {}),
        },
      });
      return next((f) => f.id === id && (f.type === 'subscribe_success' || f.type === 'subscribe_error'));
    },
  };
};

/** The JSON of a `data` frame's event. */
export const eventOf = <T = Record<string, unknown>>(frame: Frame): T => JSON.parse(String(frame.event)) as T;
