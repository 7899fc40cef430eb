import { AccountJob } from '../../shared/accounts/jobs.ts';
import { runAccountJob } from '../../shared/accounts/run-job.ts';
import { logger, recordMetric } from '../../shared/observability/index.ts';
import { sqsWorker } from '../../shared/platform/worker.ts';
import { accountJobsRow } from './workers.ts';

/**
 * The account jobs queue's consumer (SQS event source, partial batch responses; infra/accounts.ts):
 * each message is one job (shared/accounts/jobs.ts). A message that is not a job is logged and
 * dropped; a job that fails fails only its item (sqsWorker), which SQS redelivers, then moves to
 * the dead-letter queue (alarmed). Account ids are logged, never emails (a password-reset job's
 * address included).
 */
/** The metric each kind of job counts when done. */
const DONE_METRIC = {
  export: 'account_exports_built',
  delete: 'accounts_purged',
  'end-chat': 'chat_rechecks',
  'end-stream': 'deleted_creators_withdrawn',
  'password-reset': 'password_reset_requests_handled',
} as const;

export const handler = sqsWorker(accountJobsRow, 'account job failed', async (body, messageId) => {
  const job = AccountJob.safeParse(body);
  if (!job.success) return logger.warn('account job dropped: not a job', { messageId });
  // A password-reset job names an address, never logged: it has no account id to log.
  const { kind } = job.data;
  const accountId = 'account_id' in job.data ? job.data.account_id : undefined;
  try {
    const outcome = await runAccountJob(job.data, new Date());
    logger.info('account job done', { kind, accountId, outcome });
    recordMetric(DONE_METRIC[kind], 1);
  } catch (error) {
    // The job's kind and account beside sqsWorker's failure line (which names the message only).
    logger.warn('account job will be retried', { kind, accountId, messageId });
    throw error;
  }
});
