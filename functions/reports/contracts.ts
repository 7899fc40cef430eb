import { contract } from '../../shared/http/contract.ts';
import { createReportBody, reportResponses } from '../../shared/reports/schemas.ts';

const tag = 'Reports';
/** Reports feed a human moderation queue: 30 an hour per account is plenty for honest use. */
const rateLimit = { limit: 30, windowSeconds: 3600, by: 'account' } as const;
/** And at most 5 a second across all accounts (API Gateway, before Lambda). */
const throttle = { rate: 5, burst: 10 } as const;

export const createReport = /* @__PURE__ */ contract({
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
  description:
    "Files the caller's report of a video (an episode) or a show for the moderation queue, with a category and, for `other`, a reason. One report per account per target: a second one answers 409. Answers the report with `status: pending_review` and the message `Report received`.",
  request: { body: createReportBody },
  responses: () => ({
    201: { description: 'The report was filed', data: reportResponses().Report },
    404: {
      description:
        'No episode (`video`) or show has this id (the message names which: `Video not found`, `Show not found`)',
      message: 'Video not found',
    },
    409: {
      description: 'The caller has already reported this content',
      message: 'You have already reported this content',
    },
  }),
});

export const reportContracts = [createReport] as const;
