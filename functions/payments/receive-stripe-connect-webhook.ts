import { endpoint } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { receiveStripeEvent } from '../../shared/payments/stripe-webhook.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.receiveStripeConnectWebhook, async ({ headers, rawBody, now }) =>
  ok(await receiveStripeEvent('connect', rawBody(), headers['stripe-signature'], now)),
);
