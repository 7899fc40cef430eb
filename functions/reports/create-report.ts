import { httpHandler } from '../../shared/http/handler.ts';
import { created } from '../../shared/http/reply.ts';
import { submitReport } from '../../shared/reports/reports.ts';
import { createReportBody } from '../../shared/reports/schemas.ts';

export const handler = httpHandler({ body: createReportBody }, async ({ body, caller, now }) =>
  created(await submitReport(caller().accountId, body, now), { message: 'Report received' }),
);
