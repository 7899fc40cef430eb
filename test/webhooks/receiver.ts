import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/**
 * A webhook receiver for the tests, on loopback: it verifies EVERY request with the
 * `standardwebhooks` reference library (a peer implementation: not our code) against the secret
 * registered for its path, echoes verification challenges, and answers each delivery as its
 * path's behaviour says (always 2xx, fail a share of the time, hang, answer 410...). It records
 * what it saw: verified deliveries, unsigned or badly signed requests, and every attempt.
 */
export interface Received {
  path: string;
  id: string;
  timestamp: number;
  type: string;
  body: { type: string; timestamp: string; data: Record<string, unknown> };
  signatures: number;
}

export type Answer = { status: number; headers?: Record<string, string> } | { hang: true };
export type Behaviour = (attempt: { id: string; count: number }) => Answer;

export interface Receiver {
  url: string;
  /** Registers `path` with its secret and behaviour; returns the callback URL. */
  endpoint(path: string, behaviour?: Behaviour): string;
  setSecret(path: string, secret: string): void;
  /** Deliveries answered 2xx (verified), per path. */
  delivered(path: string): Received[];
  /** Every verified request per path (any answer), in arrival order. */
  attempts(path: string): Received[];
  /** Requests that failed verification with the reference library. */
  rejected: Array<{ path: string; reason: string }>;
  stop(): Promise<void>;
}

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });

export const startReceiver = async (): Promise<Receiver> => {
  const secrets = new Map<string, string>();
  const behaviours = new Map<string, Behaviour>();
  const delivered = new Map<string, Received[]>();
  const attempts = new Map<string, Received[]>();
  const counts = new Map<string, number>();
  const rejected: Receiver['rejected'] = [];
  const hanging = new Set<import('node:http').ServerResponse>();
  const server: Server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const raw = await readBody(req);
    // The secret arrives with the API's answer, which may come after the verification request.
    for (let waited = 0; !secrets.has(path) && waited < 1000; waited += 10)
      await new Promise((r) => setTimeout(r, 10));
    const secret = secrets.get(path);
    const headers = {
      'webhook-id': String(req.headers['webhook-id'] ?? ''),
      'webhook-timestamp': String(req.headers['webhook-timestamp'] ?? ''),
      'webhook-signature': String(req.headers['webhook-signature'] ?? ''),
    };
    let payload: Received['body'];
    try {
      if (!secret) throw new Error('no secret registered for this path');
      payload = new Webhook(secret).verify(raw, headers) as Received['body'];
    } catch (error) {
      rejected.push({ path, reason: (error as Error).message });
      res.writeHead(401).end();
      return;
    }
    if (payload.type === 'webhook_callback_verification') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end(String(payload.data.challenge));
      return;
    }
    const received: Received = {
      path,
      id: headers['webhook-id'],
      timestamp: Number(headers['webhook-timestamp']),
      type: payload.type,
      body: payload,
      signatures: headers['webhook-signature'].split(' ').length,
    };
    attempts.set(path, [...(attempts.get(path) ?? []), received]);
    const key = `${path} ${received.id}`;
    const count = (counts.get(key) ?? 0) + 1;
    counts.set(key, count);
    const answer: Answer = (behaviours.get(path) ?? (() => ({ status: 204 })))({ id: received.id, count });
    if ('hang' in answer) {
      hanging.add(res);
      res.on('close', () => hanging.delete(res));
      return;
    }
    if (answer.status >= 200 && answer.status < 300)
      delivered.set(path, [...(delivered.get(path) ?? []), received]);
    res.writeHead(answer.status, answer.headers).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    endpoint: (path, behaviour) => {
      if (behaviour) behaviours.set(path, behaviour);
      return `${url}${path}`;
    },
    setSecret: (path, secret) => secrets.set(path, secret),
    delivered: (path) => delivered.get(path) ?? [],
    attempts: (path) => attempts.get(path) ?? [],
    rejected,
    stop: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};
