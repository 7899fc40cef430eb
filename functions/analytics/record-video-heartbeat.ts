import { ingestPlayhead } from '../../shared/analytics/continue-watching.ts';
import { videoHeartbeatBody } from '../../shared/analytics/schemas.ts';
import { httpHandler } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';

export const handler = httpHandler({ body: videoHeartbeatBody }, async ({ body, principal, now }) =>
  ok(await ingestPlayhead({ ...body, type: 'heartbeat' }, { accountId: principal?.accountId, now })),
);
