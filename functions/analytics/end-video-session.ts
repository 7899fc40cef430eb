import { ingestPlayhead } from '../../shared/analytics/continue-watching.ts';
import { videoEndBody } from '../../shared/analytics/schemas.ts';
import { httpHandler } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';

export const handler = httpHandler({ body: videoEndBody }, async ({ body, principal, now }) =>
  ok(await ingestPlayhead({ ...body, type: 'end' }, { accountId: principal?.accountId, now })),
);
