import { requestExport } from '../../shared/accounts/accounts.ts';
import { endpoint } from '../../shared/http/handler.ts';
import { accepted } from '../../shared/http/reply.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.requestAccountExport, async ({ caller, now }) =>
  accepted(await requestExport(caller().accountId, now)),
);
