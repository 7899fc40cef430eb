import { endpoint } from '../../shared/http/handler.ts';
import { assertFactorPassed } from '../../shared/identity/factor-passed.ts';
import { ok } from '../../shared/http/reply.ts';
import { setPlan } from '../../shared/payments/payouts.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.setPlan, async ({ body, caller, now }) => {
  await assertFactorPassed(caller(), now);
  return ok(await setPlan(caller().accountId, body, now));
});
