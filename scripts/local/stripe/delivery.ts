import { createHmac } from 'node:crypto';
import type { Store, StripeEvent, WebhookEndpoint } from './store.ts';

/**
 * Webhook delivery as Stripe does it: each event POSTed as JSON to every enabled endpoint that
 * listens for its type (Connect endpoints get the events of connected accounts, which carry
 * `account`; the others get the platform's), signed with the endpoint's secret
 * (`Stripe-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<payload>">`), and retried
 * with exponential backoff while the endpoint answers anything but 2xx or cannot be reached.
 * Stripe does not promise order: a retried event arrives after later ones, and the shuffle switch
 * (STRIPE_STANDIN_SHUFFLE=1 or `POST /_standin/shuffle`) reorders each change's events and sends
 * some twice.
 */

/** The header Stripe sends: `t=<timestamp>,v1=<signature>`. */
export const signatureHeader = (payload: string, secret: string, timestamp: number): string =>
  `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.${payload}`, 'utf8').digest('hex')}`;

/** One delivery attempt, kept for `GET /_standin/deliveries`, `npm run pay` and the tests. */
export interface DeliveryAttempt {
  event: string;
  type: string;
  endpoint: string;
  url: string;
  attempt: number;
  /** The endpoint's HTTP status, or 0 when it could not be reached. */
  status: number;
  error?: string;
  at: number;
}

export interface ShuffleSettings {
  /** Send each change's events to an endpoint in a random order. */
  reorder: boolean;
  /** Send about a third of the events twice (the second copy after the others). */
  duplicate: boolean;
}

export interface DeliveryOptions {
  /** First retry after this many ms, doubling each time (Stripe: hours; locally: seconds). */
  retryBaseMs?: number;
  /** Attempts before giving up on an event for an endpoint (Stripe: 3 days of retries). */
  maxAttempts?: number;
  /** Per-attempt timeout, ms. */
  timeoutMs?: number;
  shuffle?: ShuffleSettings;
  /** The random source for the shuffle (tests pass a seeded one). */
  random?: () => number;
}

export interface Deliverer {
  dispatch(events: StripeEvent[]): void;
  readonly attempts: DeliveryAttempt[];
  shuffle: ShuffleSettings;
  /** Resolves when no delivery is in flight or waiting for a retry. */
  drain(): Promise<void>;
  stop(): void;
}

interface Job {
  event: StripeEvent;
  endpoint: WebhookEndpoint;
  attempt: number;
  /** A duplicate copy does not count towards `pending_webhooks`. */
  copy: boolean;
}

export const createDeliverer = (store: () => Store, options: DeliveryOptions = {}): Deliverer => {
  const retryBaseMs = options.retryBaseMs ?? 1_000;
  const maxAttempts = options.maxAttempts ?? 8;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const random = options.random ?? Math.random;
  const attempts: DeliveryAttempt[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const chains = new Map<string, Promise<void>>();
  let outstanding = 0;
  let waiters: Array<() => void> = [];
  let stopped = false;

  const settle = () => {
    outstanding -= 1;
    if (outstanding === 0) {
      for (const resolve of waiters) resolve();
      waiters = [];
    }
  };

  const matches = (endpoint: WebhookEndpoint, event: StripeEvent) =>
    endpoint.status === 'enabled' &&
    Boolean(store().hidden.connect.get(endpoint.id)) === Boolean(event.account) &&
    (endpoint.enabled_events.includes('*') || endpoint.enabled_events.includes(event.type));

  const send = async (job: Job): Promise<void> => {
    const { event, endpoint } = job;
    const secret = store().hidden.secrets.get(endpoint.id) ?? '';
    const payload = JSON.stringify(event, null, 2);
    const timestamp = Math.floor(Date.now() / 1000);
    const record: DeliveryAttempt = {
      event: event.id,
      type: event.type,
      endpoint: endpoint.id,
      url: endpoint.url,
      attempt: job.attempt,
      status: 0,
      at: timestamp,
    };
    try {
      const res = await fetch(endpoint.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
          'stripe-signature': signatureHeader(payload, secret, timestamp),
        },
        body: payload,
        signal: AbortSignal.timeout(timeoutMs),
      });
      record.status = res.status;
      await res.arrayBuffer().catch(() => undefined);
    } catch (error) {
      record.error = (error as Error).message;
    }
    attempts.push(record);
    const delivered = record.status >= 200 && record.status < 300;
    if (delivered) {
      if (!job.copy) event.pending_webhooks = Math.max(0, event.pending_webhooks - 1);
      return;
    }
    if (job.attempt >= maxAttempts || stopped) return;
    // Retried later, not in line: events after it go ahead (so a retry arrives out of order).
    outstanding += 1;
    const timer = setTimeout(
      () => {
        timers.delete(timer);
        enqueue({ ...job, attempt: job.attempt + 1 });
        settle();
      },
      retryBaseMs * 2 ** (job.attempt - 1),
    );
    timer.unref();
    timers.add(timer);
  };

  /** Jobs to one endpoint go one after another (a retry re-enters at the back). */
  const enqueue = (job: Job) => {
    if (stopped) return;
    outstanding += 1;
    const previous = chains.get(job.endpoint.id) ?? Promise.resolve();
    const next = previous.then(() => send(job)).finally(settle);
    chains.set(job.endpoint.id, next);
  };

  const shuffled = <T>(items: T[]): T[] => {
    const result = [...items];
    for (let i = result.length - 1; i > 0; i -= 1) {
      const j = Math.floor(random() * (i + 1));
      [result[i], result[j]] = [result[j]!, result[i]!];
    }
    return result;
  };

  const deliverer: Deliverer = {
    attempts,
    shuffle: options.shuffle ?? { reorder: false, duplicate: false },
    dispatch(events) {
      const endpoints = store().all<WebhookEndpoint>('webhook_endpoint').reverse();
      for (const endpoint of endpoints) {
        let jobs: Job[] = events
          .filter((event) => matches(endpoint, event))
          .map((event) => ({ event, endpoint, attempt: 1, copy: false }));
        for (const job of jobs) job.event.pending_webhooks += 1;
        if (deliverer.shuffle.reorder) jobs = shuffled(jobs);
        if (deliverer.shuffle.duplicate)
          jobs = [...jobs, ...jobs.filter(() => random() < 1 / 3).map((job) => ({ ...job, copy: true }))];
        for (const job of jobs) enqueue(job);
      }
    },
    drain: () =>
      outstanding === 0 ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve)),
    stop() {
      stopped = true;
      for (const timer of timers) {
        clearTimeout(timer);
        settle();
      }
      timers.clear();
    },
  };
  return deliverer;
};
