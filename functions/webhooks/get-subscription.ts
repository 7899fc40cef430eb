import { endpoint } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { findSubscription } from '../../shared/webhooks/subscriptions.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.getWebhookSubscription, async ({ path, caller }) =>
  ok(await findSubscription(caller().accountId, path.id)),
);
