import Stripe from 'stripe';
import { oncePerContainer } from '../aws/local-hook.ts';
import { keyFromSecret } from '../playback/key-secret.ts';

/**
 * The container's Stripe client and webhook secrets. Every value comes from ONE Secrets Manager
 * secret (JSON `{secret_key, webhook_secret, connect_webhook_secret}`) that STRIPE_SECRET_ARN
 * names, read once per container on first use; never an environment variable. The API's address
 * is STRIPE_API_URL when set (unset on AWS: `https://api.stripe.com`; the local platform points it at
 * its Stripe stand-in, docs/local-stripe.md). Only functions whose row needs `stripe` import this
 * module, so the `stripe` package stays out of every other bundle (docs/payments.md).
 */
export interface StripeSecrets {
  secret_key: string;
  webhook_secret: string;
  connect_webhook_secret: string;
}

const secretText = /* @__PURE__ */ keyFromSecret('STRIPE_SECRET_ARN');

/** The secret's three values, checked once. */
export const stripeSecrets = /* @__PURE__ */ oncePerContainer(async (): Promise<StripeSecrets> => {
  const parsed = JSON.parse(await secretText()) as Partial<StripeSecrets>;
  if (typeof parsed.secret_key !== 'string' || parsed.secret_key === '')
    throw new Error('The Stripe secret has no secret_key');
  return {
    secret_key: parsed.secret_key,
    webhook_secret: parsed.webhook_secret ?? '',
    connect_webhook_secret: parsed.connect_webhook_secret ?? '',
  };
});

/** Stripe's API: the client's address unless STRIPE_API_URL names another (the local stand-in). */
export const STRIPE_API = 'https://api.stripe.com';

/** A client for `secretKey` sending every call to `apiUrl` (tests give their own fake's address). */
export const stripeClient = (secretKey: string, apiUrl: string): Stripe => {
  const url = new URL(apiUrl);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return new Stripe(secretKey, {
    host: url.hostname,
    port: Number(url.port || (protocol === 'http' ? 80 : 443)),
    protocol,
    maxNetworkRetries: 2,
    timeout: 10_000,
    telemetry: false,
  });
};

/** The container's client (created on first use, from the secret and STRIPE_API_URL). */
export const stripe = /* @__PURE__ */ oncePerContainer(async () =>
  stripeClient((await stripeSecrets()).secret_key, process.env.STRIPE_API_URL || STRIPE_API),
);

export type { Stripe };
