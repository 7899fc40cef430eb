import * as z from 'zod/mini';
import { contract } from '../../shared/http/contract.ts';
import { createReportBody } from '../../shared/reports/schemas.ts';

const tag = 'Reports';
/** Reports feed a human moderation queue: 30 an hour per account is plenty for honest use. */
const rateLimit = { limit: 30, windowSeconds: 3600, by: 'account' } as const;
/** And at most 5 a second across all accounts (API Gateway, before Lambda). */
const throttle = { rate: 5, burst: 10 } as const;

export const createReport = contract({
  operationId: 'createReport',
  method: 'POST',
  path: '/reports',
  handler: 'reports/create-report',
  dynamo: { actions: ['GetItem', 'PutItem', 'UpdateItem'], indexes: ['GSI3'] },
  auth: 'required',
  rateLimit,
  throttle,
  tag,
  summary: 'Report a video or show for moderation (one report per user per target)',
  description: 'Report a video or show for moderation (one report per user per target)',
  request: { body: createReportBody },
  responses: {
    201: { description: 'Created', data: z.unknown() },
  },
});

export const reportContracts = [createReport] as const;
