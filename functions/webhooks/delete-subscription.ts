import { endpoint } from '../../shared/http/handler.ts';
import { noContent } from '../../shared/http/reply.ts';
import { removeSubscription } from '../../shared/webhooks/subscriptions.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.deleteWebhookSubscription, async ({ path, caller }) => {
  await removeSubscription(caller().accountId, path.id);
  return noContent();
});
