import { ingest, senderOf } from '../../shared/analytics/ingest.ts';
import { endpoint } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.recordVideoQuality, async (req) =>
  ok(await ingest('video', [{ ...req.body, type: 'renditionchange' }], senderOf(req))),
);
