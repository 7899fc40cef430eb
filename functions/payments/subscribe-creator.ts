import { endpoint } from '../../shared/http/handler.ts';
import { created } from '../../shared/http/reply.ts';
import { startCheckout } from '../../shared/payments/checkout.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.subscribeCreator, async ({ path, caller, now }) =>
  created(await startCheckout(caller().accountId, { creator_id: path.id }, now)),
);
