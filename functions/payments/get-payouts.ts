import { endpoint } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { payoutsOverview } from '../../shared/payments/payouts-overview.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.getPayouts, async ({ caller }) =>
  ok(await payoutsOverview(caller().accountId)),
);
