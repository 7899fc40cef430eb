import { endpoint } from '../../shared/http/handler.ts';
import { assertFactorPassed } from '../../shared/identity/factor-passed.ts';
import { created } from '../../shared/http/reply.ts';
import { startOnboarding } from '../../shared/payments/payouts.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.startPayoutOnboarding, async ({ caller, now }) => {
  await assertFactorPassed(caller(), now);
  return created(await startOnboarding(caller().accountId, now));
});
