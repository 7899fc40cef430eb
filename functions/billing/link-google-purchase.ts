import { endpoint } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { linkGooglePurchase } from '../../shared/stores/google-notifications.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.linkGooglePurchase, async ({ body, caller, now }) =>
  ok(await linkGooglePurchase(caller().accountId, body, now)),
);
