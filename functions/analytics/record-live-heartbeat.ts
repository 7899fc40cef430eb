import { ingest } from '../../shared/analytics/ingest.ts';
import { liveHeartbeatBody } from '../../shared/analytics/schemas.ts';
import { httpHandler } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';

export const handler = httpHandler({ body: liveHeartbeatBody }, async ({ body, principal, now }) =>
  ok(await ingest('live', [{ ...body, type: 'heartbeat' }], { accountId: principal?.accountId, now })),
);
