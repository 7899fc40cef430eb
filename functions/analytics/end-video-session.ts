import { ingestPlayhead } from '../../shared/analytics/continue-watching.ts';
import { endpoint } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.endVideoSession, async ({ body, principal, now }) =>
  ok(await ingestPlayhead({ ...body, type: 'end' }, { accountId: principal?.accountId, now })),
);
