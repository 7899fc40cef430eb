import { ingest, senderOf } from '../../shared/analytics/ingest.ts';
import { endpoint } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.recordLiveHeartbeat, async (req) =>
  ok(await ingest('live', [{ ...req.body, type: 'heartbeat' }], senderOf(req))),
);
