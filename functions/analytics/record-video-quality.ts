import { ingest } from '../../shared/analytics/ingest.ts';
import { videoQualityBody } from '../../shared/analytics/schemas.ts';
import { httpHandler } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';

export const handler = httpHandler({ body: videoQualityBody }, async ({ body, principal, now }) =>
  ok(await ingest('video', [{ ...body, type: 'renditionchange' }], { accountId: principal?.accountId, now })),
);
