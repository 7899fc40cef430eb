import { startSession } from '../../shared/analytics/ingest.ts';
import { liveStartBody } from '../../shared/analytics/schemas.ts';
import { httpHandler } from '../../shared/http/handler.ts';
import { created } from '../../shared/http/reply.ts';

export const handler = httpHandler({ body: liveStartBody }, async ({ body, principal, now }) =>
  created(await startSession('live', body, { accountId: principal?.accountId, now })),
);
