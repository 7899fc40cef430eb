import { senderOf } from '../../shared/analytics/ingest.ts';
import { ingestPlayhead } from '../../shared/analytics/continue-watching.ts';
import { endpoint } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.recordVideoHeartbeat, async (req) =>
  ok(await ingestPlayhead({ ...req.body, type: 'heartbeat' }, senderOf(req))),
);
