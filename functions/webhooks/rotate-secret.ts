import { endpoint } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { rotateSecret } from '../../shared/webhooks/subscriptions.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.rotateWebhookSecret, async ({ path, caller, now }) =>
  ok(await rotateSecret(caller().accountId, path.id, now)),
);
