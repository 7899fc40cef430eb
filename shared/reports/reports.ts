import { randomUUID } from 'node:crypto';
import { NotFoundError } from '../errors/errors.ts';
import { getEpisode, getShow } from '../shows/show-repository.ts';
import { putReport, type ReportRecord } from './report-repository.ts';
import type { CreateReportBody, Report } from './schemas.ts';

const targetExists = async (body: CreateReportBody): Promise<boolean> =>
  body.target_type === 'show'
    ? (await getShow(body.target_id)) !== undefined
    : (await getEpisode(body.target_id)) !== undefined;

/**
 * `POST /reports`: records a report of a video (episode id) or show for moderation.
 * 404 for an unknown target, 409 when the caller already reported it.
 */
export const submitReport = async (accountId: string, body: CreateReportBody, now: Date): Promise<Report> => {
  if (!(await targetExists(body)))
    throw new NotFoundError(`${body.target_type === 'show' ? 'Show' : 'Video'} not found`);
  const report: ReportRecord = {
    report_id: randomUUID(),
    account_id: accountId,
    target_type: body.target_type,
    target_id: body.target_id,
    category: body.category,
    reason: body.reason || null,
    status: 'pending_review',
    created_at: now.toISOString(),
  };
  await putReport(report);
  const { account_id: _a, ...view } = report;
  return view;
};
