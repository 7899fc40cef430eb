import { ingest } from '../../shared/analytics/ingest.ts';
import { liveEventsBody } from '../../shared/analytics/schemas.ts';
import { httpHandler } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';

export const handler = httpHandler({ body: liveEventsBody }, async ({ body, principal, now }) =>
  ok(await ingest('live', body.events, { accountId: principal?.accountId, now })),
);
