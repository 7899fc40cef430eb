import { deleteAccount } from '../../shared/accounts/accounts.ts';
import { endpoint } from '../../shared/http/handler.ts';
import { assertFactorPassed } from '../../shared/identity/factor-passed.ts';
import { accepted } from '../../shared/http/reply.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.deleteMyAccount, async ({ caller, body, now }) => {
  await assertFactorPassed(caller(), now);
  return accepted(await deleteAccount(caller(), body, now));
});
