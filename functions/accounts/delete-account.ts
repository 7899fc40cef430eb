import { deleteAccount } from '../../shared/accounts/accounts.ts';
import { endpoint } from '../../shared/http/handler.ts';
import { accepted } from '../../shared/http/reply.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.deleteMyAccount, async ({ caller, body, now }) =>
  accepted(await deleteAccount(caller().accountId, body, now)),
);
