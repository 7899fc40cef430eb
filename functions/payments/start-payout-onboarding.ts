import { endpoint } from '../../shared/http/handler.ts';
import { created } from '../../shared/http/reply.ts';
import { startOnboarding } from '../../shared/payments/payouts.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.startPayoutOnboarding, async ({ caller, now }) =>
  created(await startOnboarding(caller().accountId, now)),
);
