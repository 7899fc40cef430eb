import { trackProgress } from '../../shared/analytics/continue-watching.ts';
import { ingest } from '../../shared/analytics/ingest.ts';
import { videoHeartbeatBody } from '../../shared/analytics/schemas.ts';
import { httpHandler } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';

export const handler = httpHandler({ body: videoHeartbeatBody }, async ({ body, principal, now }) => {
  if (principal) await trackProgress(principal.accountId, body.content_id, body.position_seconds, now);
  return ok(
    await ingest('video', [{ ...body, type: 'heartbeat' }], { accountId: principal?.accountId, now }),
  );
});
