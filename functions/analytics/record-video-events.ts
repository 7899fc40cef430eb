import { ingest } from '../../shared/analytics/ingest.ts';
import { videoEventsBody } from '../../shared/analytics/schemas.ts';
import { httpHandler } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';

export const handler = httpHandler({ body: videoEventsBody }, async ({ body, principal, now }) =>
  ok(await ingest('video', body.events, { accountId: principal?.accountId, now })),
);
