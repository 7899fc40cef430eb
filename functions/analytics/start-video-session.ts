import { senderOf, startSession } from '../../shared/analytics/ingest.ts';
import { endpoint } from '../../shared/http/handler.ts';
import { created } from '../../shared/http/reply.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.startVideoSession, async (req) =>
  created(await startSession('video', req.body, senderOf(req))),
);
