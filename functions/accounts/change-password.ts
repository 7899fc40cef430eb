import { endpoint } from '../../shared/http/handler.ts';
import { assertFactorPassed } from '../../shared/identity/factor-passed.ts';
import { ok } from '../../shared/http/reply.ts';
import { changePassword } from '../../shared/accounts/credentials.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.changePassword, async ({ body, caller, now }) => {
  await assertFactorPassed(caller(), now);
  return ok(await changePassword(caller(), body, now));
});
