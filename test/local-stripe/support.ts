import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import {
  type StripeStandIn,
  type StripeStandInOptions,
  startStripeStandIn,
} from '../../scripts/local/stripe/server.ts';

/** The official client pointed at the stand-in, as the back end points it (host, port, protocol). */
export const clientFor = (standIn: StripeStandIn, key = standIn.secretKey): Stripe => {
  const url = new URL(standIn.endpoint);
  return new Stripe(key, {
    host: url.hostname,
    port: Number(url.port),
    protocol: 'http',
    maxNetworkRetries: 0,
  });
};

export const startStandIn = (options: StripeStandInOptions = {}) =>
  startStripeStandIn({ retryBaseMs: 20, ...options });

/** A webhook receiver: every delivery's raw body and signature; answers what `respond` says. */
export interface Receiver {
  url: string;
  received: Array<{ body: string; signature: string; path: string }>;
  respond: (path: string, body: string) => number;
  close(): Promise<void>;
}

export const startReceiver = async (): Promise<Receiver> => {
  const receiver = {
    url: '',
    received: [] as Receiver['received'],
    respond: (() => 200) as Receiver['respond'],
  };
  const server: Server = createServer(async (req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    receiver.received.push({ body, signature: String(req.headers['stripe-signature']), path: req.url ?? '' });
    res.writeHead(receiver.respond(req.url ?? '', body));
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(receiver, {
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
};

/** POSTs a control action (`npm run pay`'s call). */
export const pay = async (standIn: StripeStandIn, action: string, id: string, amount?: number) => {
  const res = await fetch(`${standIn.endpoint}/_standin/pay/${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id, amount }),
  });
  return { status: res.status, body: (await res.json()) as any };
};
