import { startSession } from '../../shared/analytics/ingest.ts';
import { videoStartBody } from '../../shared/analytics/schemas.ts';
import { httpHandler } from '../../shared/http/handler.ts';
import { created } from '../../shared/http/reply.ts';

export const handler = httpHandler({ body: videoStartBody }, async ({ body, principal, now }) =>
  created(await startSession('video', body, { accountId: principal?.accountId, now })),
);
