import { endpoint } from '../../shared/http/handler.ts';
import { paged } from '../../shared/http/reply.ts';
import { listSubscriptions } from '../../shared/webhooks/subscriptions.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.listWebhookSubscriptions, async ({ query, caller }) =>
  paged(await listSubscriptions(caller().accountId, query)),
);
