import { endpoint } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { assertFactorPassed } from '../../shared/identity/factor-passed.ts';
import { noStore } from '../../shared/identity/no-store.ts';
import { regenerateRecoveryCodes } from '../../shared/identity/second-factor.ts';
import * as contracts from './mfa-contracts.ts';

export const handler = endpoint(contracts.regenerateRecoveryCodes, async ({ caller, now }) => {
  await assertFactorPassed(caller(), now);
  return ok(await regenerateRecoveryCodes(caller()), noStore);
});
