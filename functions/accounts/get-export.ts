import { exportStatus } from '../../shared/accounts/export-status.ts';
import { endpoint } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { noStore } from '../../shared/identity/no-store.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.getAccountExport, async ({ caller, now }) =>
  ok(await exportStatus(caller().accountId, now), noStore),
);
