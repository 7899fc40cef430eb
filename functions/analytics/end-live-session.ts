import { ingest } from '../../shared/analytics/ingest.ts';
import { liveEndBody } from '../../shared/analytics/schemas.ts';
import { httpHandler } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';

export const handler = httpHandler({ body: liveEndBody }, async ({ body, principal, now }) =>
  ok(await ingest('live', [{ ...body, type: 'end' }], { accountId: principal?.accountId, now })),
);
