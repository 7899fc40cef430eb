import { endpoint } from '../../shared/http/handler.ts';
import { created } from '../../shared/http/reply.ts';
import { callbackPolicy } from '../../shared/webhooks/ssrf.ts';
import { createSubscription } from '../../shared/webhooks/subscriptions.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.createWebhookSubscription, async ({ body, caller, now }) =>
  created(await createSubscription(caller().accountId, body, now, callbackPolicy())),
);
