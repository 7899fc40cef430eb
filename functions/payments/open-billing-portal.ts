import { endpoint } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { billingPortal } from '../../shared/payments/checkout.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.openBillingPortal, async ({ caller }) =>
  ok(await billingPortal(caller().accountId)),
);
