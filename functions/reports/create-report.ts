import { endpoint } from '../../shared/http/handler.ts';
import { created } from '../../shared/http/reply.ts';
import { submitReport } from '../../shared/reports/reports.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.createReport, async ({ body, caller, now }) =>
  created(await submitReport(caller().accountId, body, now), { message: 'Report received' }),
);
