import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StateError } from './billing.ts';
import { type DeliveryOptions, createDeliverer, type Deliverer } from './delivery.ts';
import { parseForm } from './form.ts';
import { PAY_ACTIONS, type PayAction, runPayAction } from './control.ts';
import { servePages } from './pages.ts';
import { reader, StripeApiError } from './params.ts';
import { type Context, expand, ROUTES } from './resources.ts';
import { API_VERSION, Store } from './store.ts';

/**
 * The local stand-in for Stripe (docs/local-stripe.md): the REST API the official `stripe`
 * package calls (`new Stripe(key, { host, port, protocol: 'http' })`), stateful and in memory,
 * with the hosted pages and webhook delivery, plus a control API under `/_standin/` for
 * `npm run pay` and tests. API requests need `Authorization: Bearer <secret key>`; a POST with
 * an `Idempotency-Key` answers the first response again to a retry with the same parameters and
 * 400 (idempotency_error) to a reuse with different ones, as Stripe does for 24 hours.
 */
export interface StripeStandIn {
  endpoint: string;
  /** The test-mode secret key the API accepts. */
  secretKey: string;
  store: Store;
  deliverer: Deliverer;
  stop(): Promise<void>;
}

export interface StripeStandInOptions extends DeliveryOptions {
  port?: number;
  host?: string;
  secretKey?: string;
  now?: () => number;
}

interface Remembered {
  fingerprint: string;
  status: number;
  body: string;
}

const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  const text = typeof body === 'string' ? body : JSON.stringify(body, null, 2);
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(text);
  return text;
};

const readBody = async (req: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

/**
 * The stand-in's secret key: STRIPE_STANDIN_SECRET_KEY when set (a test-mode key, `sk_test_...`:
 * a live key is refused, so a real one is never put there), else a random one per start.
 */
export const standInSecretKey = (env: NodeJS.ProcessEnv = process.env): string => {
  const given = env.STRIPE_STANDIN_SECRET_KEY;
  if (!given) return `sk_test_local${randomBytes(12).toString('hex')}`;
  if (!/^sk_test_[A-Za-z0-9_]{1,200}$/.test(given))
    throw new Error('STRIPE_STANDIN_SECRET_KEY must be a test-mode key: sk_test_ and letters, digits or _');
  return given;
};

export const startStripeStandIn = async (options: StripeStandInOptions = {}): Promise<StripeStandIn> => {
  const secretKey = options.secretKey ?? standInSecretKey();
  let store: Store | undefined;
  const deliverer = createDeliverer(() => store!, {
    ...options,
    shuffle: options.shuffle ?? {
      reorder: process.env.STRIPE_STANDIN_SHUFFLE === '1',
      duplicate: process.env.STRIPE_STANDIN_SHUFFLE === '1',
    },
  });
  store = new Store((events) => deliverer.dispatch(events), options.now);
  const remembered = new Map<string, Remembered>();
  let endpoint = '';

  const api = async (req: IncomingMessage, res: ServerResponse, url: URL) => {
    const requestId = `req_${randomBytes(7).toString('hex')}`;
    const headers: Record<string, string> = { 'request-id': requestId, 'stripe-version': API_VERSION };
    const auth = req.headers.authorization ?? '';
    if (auth !== `Bearer ${secretKey}`) {
      const given = auth.replace(/^Bearer\s+/, '');
      const message = given
        ? `Invalid API Key provided: ${given.slice(0, 8)}${'*'.repeat(Math.max(0, given.length - 12))}${given.slice(-4)}`
        : "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').";
      send(res, 401, new StripeApiError(401, 'invalid_request_error', message).body(), headers);
      return;
    }
    const method = req.method ?? 'GET';
    const body = await readBody(req);
    const encoded = method === 'POST' ? body : url.search.slice(1);
    const key = method === 'POST' ? (req.headers['idempotency-key'] as string | undefined) : undefined;
    const fingerprint = createHash('sha256').update(`${method} ${url.pathname} ${encoded}`).digest('hex');
    if (key) {
      headers['idempotency-key'] = key;
      const earlier = remembered.get(key);
      if (earlier && earlier.fingerprint !== fingerprint) {
        const error = new StripeApiError(
          400,
          'idempotency_error',
          `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
        );
        send(res, 400, error.body(), headers);
        return;
      }
      if (earlier) {
        send(res, earlier.status, earlier.body, { ...headers, 'idempotent-replayed': 'true' });
        return;
      }
    }
    const found = ROUTES.map((route) => ({ route, match: route.pattern.exec(url.pathname) })).filter(
      ({ match }) => match,
    );
    const matched = found.find(({ route }) => route.method === method);
    let status = 200;
    let answer: unknown;
    try {
      if (!matched)
        throw new StripeApiError(
          404,
          'invalid_request_error',
          found.length > 0
            ? `Unrecognized request URL (${method}: ${url.pathname}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`
            : `Unrecognized request URL (${method}: ${url.pathname}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
        );
      const params = reader(parseForm(encoded));
      const ctx: Context = { store: store!, base: endpoint, requestId, idempotencyKey: key ?? null };
      const result = matched.route.handler(ctx, params, matched.match!.slice(1));
      answer = expand(store!, result, params.strings('expand'));
    } catch (error) {
      if (!(error instanceof StripeApiError)) throw error;
      status = error.status;
      answer = error.body();
    }
    const text = send(res, status, answer, headers);
    if (key) remembered.set(key, { fingerprint, status, body: text });
  };

  const control = async (req: IncomingMessage, res: ServerResponse, url: URL) => {
    const action = /^\/_standin\/pay\/([a-z-]+)$/.exec(url.pathname)?.[1];
    if (req.method === 'POST' && action) {
      if (!PAY_ACTIONS.includes(action as PayAction)) {
        send(res, 404, { error: { message: `no action ${action}: one of ${PAY_ACTIONS.join(', ')}` } });
        return;
      }
      const input = JSON.parse((await readBody(req)) || '{}') as { id?: string; amount?: number };
      if (!input.id) {
        send(res, 400, { error: { message: 'give the id: {"id": "cs_..."}' } });
        return;
      }
      try {
        send(res, 200, runPayAction(store!, action as PayAction, input.id, { amount: input.amount }));
      } catch (error) {
        if (error instanceof StripeApiError) send(res, error.status, error.body());
        else if (error instanceof StateError) send(res, 409, { error: { message: error.message } });
        else throw error;
      }
      return;
    }
    if (req.method === 'POST' && url.pathname === '/_standin/shuffle') {
      const input = JSON.parse((await readBody(req)) || '{}') as { reorder?: boolean; duplicate?: boolean };
      deliverer.shuffle = { reorder: Boolean(input.reorder), duplicate: Boolean(input.duplicate) };
      send(res, 200, deliverer.shuffle);
      return;
    }
    if (req.method === 'GET' && url.pathname === '/_standin/deliveries') {
      // ?wait=1: once nothing is in flight or waiting for a retry (at most 30 s).
      if (url.searchParams.get('wait'))
        await Promise.race([
          deliverer.drain(),
          new Promise((resolve) => setTimeout(resolve, 30_000).unref()),
        ]);
      const events = url.searchParams.getAll('event');
      send(res, 200, {
        deliveries: deliverer.attempts.filter(
          (attempt) => events.length === 0 || events.includes(attempt.event),
        ),
      });
      return;
    }
    send(res, 404, { error: { message: `no control ${req.method} ${url.pathname}` } });
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const handle = url.pathname.startsWith('/v1/')
      ? api(req, res, url)
      : url.pathname.startsWith('/_standin/')
        ? control(req, res, url)
        : servePages(store!, req, res).then((served) => {
            if (!served)
              send(res, 404, {
                error: { message: `Unrecognized request URL (${req.method}: ${url.pathname}).` },
              });
          });
    handle.catch((error: Error) => {
      console.error(`Stripe stand-in: ${req.method} ${url.pathname} failed: ${error.stack ?? error.message}`);
      if (!res.headersSent)
        send(res, 500, { error: { type: 'api_error', message: 'An unknown error occurred' } });
      else res.end();
    });
  });
  await new Promise<void>((resolve) =>
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve),
  );
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    endpoint,
    secretKey,
    store,
    deliverer,
    stop: () =>
      new Promise<void>((resolve) => {
        deliverer.stop();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
