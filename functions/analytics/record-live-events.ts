import { ingest } from '../../shared/analytics/ingest.ts';
import { endpoint } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.recordLiveEvents, async ({ body, principal, now }) =>
  ok(await ingest('live', body.events, { accountId: principal?.accountId, now })),
);
