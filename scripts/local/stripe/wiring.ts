import { SUBSCRIBED_EVENTS } from '../../../shared/payments/stripe-webhook.ts';
import type { StripeStandIn } from './server.ts';

/**
 * How the local platform connects the back end to the Stripe stand-in, as an operator connects it
 * to Stripe: the API's URL in STRIPE_API_URL (a URL setting, passed to every function; unset on
 * AWS, where the client talks to api.stripe.com), and the keys in the Secrets Manager stand-in's
 * Stripe secret (scripts/local/aws.ts, LOCAL_STRIPE_SECRET_ARN), read from the host's
 * LOCAL_STRIPE_SECRET: `{ secret_key, webhook_secret, connect_webhook_secret }`. The webhook
 * secrets come from registering the platform's two endpoints through the stand-in's own
 * `POST /v1/webhook_endpoints`, as one registers them in Stripe's dashboard.
 */

/** The routes Stripe delivers to (the platform's events; Connect accounts' events). */
export const WEBHOOK_PATH = '/billing/stripe/webhook';
export const CONNECT_WEBHOOK_PATH = '/billing/stripe/connect-webhook';

/** The secret's JSON. */
export interface StripeSecret {
  secret_key: string;
  webhook_secret: string;
  connect_webhook_secret: string;
}

const publish = (standIn: Pick<StripeStandIn, 'endpoint'>, secret: StripeSecret) => {
  process.env.STRIPE_API_URL = standIn.endpoint;
  process.env.LOCAL_STRIPE_SECRET = JSON.stringify(secret);
};

/** Points the functions at the stand-in (its key; no webhook endpoints yet). */
export const useStripeStandIn = (standIn: Pick<StripeStandIn, 'endpoint' | 'secretKey'>): void =>
  publish(standIn, { secret_key: standIn.secretKey, webhook_secret: '', connect_webhook_secret: '' });

/** Which event types each endpoint listens to (`['*']`: all, as the stand-in's own tests register). */
export type EnabledEvents = Record<'platform' | 'connect', readonly string[]>;

const createEndpoint = async (
  standIn: Pick<StripeStandIn, 'endpoint' | 'secretKey'>,
  url: string,
  connect: boolean,
  events: EnabledEvents,
): Promise<string> => {
  const body = new URLSearchParams({ url, description: 'creator streaming (local)' });
  events[connect ? 'connect' : 'platform'].forEach((type, i) => {
    body.set(`enabled_events[${i}]`, type);
  });
  if (connect) body.set('connect', 'true');
  const res = await fetch(`${standIn.endpoint}/v1/webhook_endpoints`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${standIn.secretKey}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body,
  });
  const created = (await res.json()) as { secret?: string; error?: { message: string } };
  if (!res.ok || !created.secret) throw new Error(`webhook endpoint for ${url}: ${created.error?.message}`);
  return created.secret;
};

/**
 * Registers `apiUrl`'s two webhook routes with the stand-in (the events the platform acts on,
 * SUBSCRIBED_EVENTS; the Connect one with `connect: true`) and publishes the secret with their signing secrets.
 */
export const connectStripeWebhooks = async (
  standIn: Pick<StripeStandIn, 'endpoint' | 'secretKey'>,
  apiUrl: string,
  events: EnabledEvents = SUBSCRIBED_EVENTS,
): Promise<StripeSecret> => {
  const secret: StripeSecret = {
    secret_key: standIn.secretKey,
    webhook_secret: await createEndpoint(standIn, `${apiUrl}${WEBHOOK_PATH}`, false, events),
    connect_webhook_secret: await createEndpoint(standIn, `${apiUrl}${CONNECT_WEBHOOK_PATH}`, true, events),
  };
  publish(standIn, secret);
  return secret;
};

/**
 * Removes the webhook endpoints registered for `apiUrl` (through the stand-in's own
 * `GET` and `DELETE /v1/webhook_endpoints`), as one removes a retired endpoint in Stripe's
 * dashboard: a test file's API, gone when the file ends, would otherwise be sent every later event
 * of the run (and each retried while it cannot be reached). Answers the ids removed.
 */
export const disconnectStripeWebhooks = async (
  standIn: Pick<StripeStandIn, 'endpoint' | 'secretKey'>,
  apiUrl: string,
): Promise<string[]> => {
  const headers = { authorization: `Bearer ${standIn.secretKey}` };
  const mine: string[] = [];
  let after: string | undefined;
  for (;;) {
    const query = new URLSearchParams({ limit: '100', ...(after ? { starting_after: after } : {}) });
    const res = await fetch(`${standIn.endpoint}/v1/webhook_endpoints?${query}`, { headers });
    if (!res.ok) throw new Error(`webhook endpoints: ${res.status} ${await res.text()}`);
    const page = (await res.json()) as { data: Array<{ id: string; url: string }>; has_more: boolean };
    mine.push(...page.data.filter((e) => e.url.startsWith(`${apiUrl}/`)).map((e) => e.id));
    if (!page.has_more || page.data.length === 0) break;
    after = page.data.at(-1)?.id;
  }
  for (const id of mine) {
    const res = await fetch(`${standIn.endpoint}/v1/webhook_endpoints/${id}`, { method: 'DELETE', headers });
    if (!res.ok) throw new Error(`webhook endpoint ${id}: ${res.status} ${await res.text()}`);
  }
  return mine;
};
