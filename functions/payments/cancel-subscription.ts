import { endpoint } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { cancelSubscription } from '../../shared/payments/checkout.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.cancelSubscription, async ({ path, caller, now }) =>
  ok(await cancelSubscription(caller().accountId, path.id, now)),
);
