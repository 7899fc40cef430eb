import { ingest } from '../../shared/analytics/ingest.ts';
import { videoErrorBody } from '../../shared/analytics/schemas.ts';
import { httpHandler } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';

export const handler = httpHandler({ body: videoErrorBody }, async ({ body, principal, now }) =>
  ok(await ingest('video', [{ ...body, type: 'error' }], { accountId: principal?.accountId, now })),
);
