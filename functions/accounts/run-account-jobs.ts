import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { AccountJob } from '../../shared/accounts/jobs.ts';
import { runAccountJob } from '../../shared/accounts/run-job.ts';
import { logger, metrics, recordMetric } from '../../shared/observability/index.ts';

/**
 * The account jobs queue's consumer (SQS event source, partial batch responses; infra/accounts.ts):
 * each message is one job (shared/accounts/jobs.ts). A message that is not a job is logged and
 * dropped; a job that fails fails only its item, which SQS redelivers, then moves to the
 * dead-letter queue (alarmed). Account ids are logged, never emails.
 */
export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const failures = await Promise.all(
    event.Records.map(async (record) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(record.body);
      } catch {
        parsed = undefined;
      }
      const job = AccountJob.safeParse(parsed);
      if (!job.success) {
        logger.warn('account job dropped: not a job', { messageId: record.messageId });
        return undefined;
      }
      try {
        const outcome = await runAccountJob(job.data, new Date());
        logger.info('account job done', { kind: job.data.kind, accountId: job.data.account_id, outcome });
        recordMetric(job.data.kind === 'export' ? 'account_exports_built' : 'accounts_purged', 1);
        return undefined;
      } catch (error) {
        logger.error('account job failed', {
          kind: job.data.kind,
          accountId: job.data.account_id,
          error: { name: (error as Error).name, message: (error as Error).message },
          messageId: record.messageId,
        });
        return { itemIdentifier: record.messageId };
      }
    }),
  );
  metrics.publishStoredMetrics();
  return { batchItemFailures: failures.filter((f) => f !== undefined) };
};
