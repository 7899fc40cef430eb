import { accountJobsRow } from '../../functions/accounts/workers.ts';
import { functionContext, installLocalAws, runAsFunction } from './aws.ts';
import { configureLocalAccountJobs, localAccountJobQueues } from './webhooks-outbox.ts';

/**
 * Account jobs on this machine (docs/accounts.md, "Locally"), as on AWS: the account jobs queue
 * (the local SQS stand-in, scripts/local/webhooks-outbox.ts) drained by the account jobs function,
 * run as that function (its environment and IAM policy). The queue is per process, as the local
 * server is: a process that serves the API and wants its jobs run calls this (npm start does;
 * tests do, with a small `delayScale` for the deletion's 15-minute wait).
 */
export const startLocalAccountJobs = async (options: { delayScale?: number } = {}) => {
  installLocalAws();
  configureLocalAccountJobs({ delayScale: options.delayScale ?? 1 });
  const context = functionContext(accountJobsRow);
  const { handler } = await runAsFunction(
    context,
    () => import('../../functions/accounts/run-account-jobs.ts'),
  );
  localAccountJobQueues.jobs.consume((event) => runAsFunction(context, () => handler(event)));
  return {
    /**
     * Resolves once no job is delayed, in flight or being retried; `elapse`: their delays (the
     * deletion's 15 minutes, retries' visibility timeouts) pass at once.
     */
    drain: (options: { elapse?: boolean } = {}) => localAccountJobQueues.jobs.drained(options),
    /** Bodies of the jobs in the dead-letter queue. */
    deadLetters: () => localAccountJobQueues.deadLetters.waiting.map((m) => m.body),
    stop: () => localAccountJobQueues.jobs.consume(undefined),
  };
};
