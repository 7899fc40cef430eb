import { endpoint } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { receiveStripeEvent } from '../../shared/payments/stripe-webhook.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.receiveStripeWebhook, async ({ headers, rawBody, now }) =>
  ok(await receiveStripeEvent('platform', rawBody(), headers['stripe-signature'], now)),
);
