import { Duration } from 'aws-cdk-lib';
import type * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { type Monitoring, queuedMessages } from './monitoring.ts';
import { failureQueue } from './queues.ts';
import { Construct } from 'constructs';

/**
 * How Lambda handles an asynchronous invocation (EventBridge rules, EventBridge Scheduler) that
 * fails: its own retries, then the event with the error to the on-failure queue. Exported so the
 * tests and docs/operations.md ("Redrive") name the same figures.
 */
export const ASYNC_INVOKE = {
  /** Lambda's retries after the first failure (its maximum). */
  retryAttempts: 2,
  /** An event still queued in Lambda after this long goes to the on-failure queue unprocessed. */
  maxEventAgeHours: 6,
} as const;

/**
 * The on-failure destination of an asynchronously invoked function: an SQS queue (SQS-managed
 * encryption, TLS only, 14 days) that receives Lambda's invocation record (`requestPayload`: the
 * event, `responsePayload`: the error, `requestContext.functionArn`) once the retries are spent,
 * and an alarm as soon as one arrives. An operator sends the records back
 * (docs/operations.md "Redrive"); nothing is lost silently.
 */
export class AsyncFailures extends Construct {
  readonly queue: sqs.Queue;
  readonly alarm: cloudwatch.Alarm;

  constructor(
    scope: Construct,
    id: string,
    props: {
      fn: lambda.Function;
      monitoring: Monitoring;
      description: string;
      /**
       * For a function whose next scheduled run replaces a failed one (the realtime ticks): no
       * retries and a short event age, so a retry never overlaps the next run. Default ASYNC_INVOKE.
       */
      replacedByNextRun?: { maxEventAge: Duration };
    },
  ) {
    super(scope, id);
    this.queue = failureQueue(
      this,
      'Queue',
      'This queue is itself a dead-letter destination (a function\'s asynchronous on-failure destination); an operator redrives it (docs/operations.md "Redrive").',
    );
    props.fn.configureAsyncInvoke({
      onFailure: new SqsDestination(this.queue),
      retryAttempts: props.replacedByNextRun ? 0 : ASYNC_INVOKE.retryAttempts,
      maxEventAge: props.replacedByNextRun?.maxEventAge ?? Duration.hours(ASYNC_INVOKE.maxEventAgeHours),
    });
    this.alarm = props.monitoring.alarm(this, 'Alarm', {
      metric: queuedMessages(this.queue),
      threshold: 1,
      alarmDescription: props.replacedByNextRun
        ? `${props.description}: a scheduled run failed (no retry: the next run replaces it); its event is in the on-failure queue, for the error. See docs/operations.md#redrive`
        : `${props.description}: an asynchronous invocation failed after Lambda's ${ASYNC_INVOKE.retryAttempts} retries (or waited over ${ASYNC_INVOKE.maxEventAgeHours} h); its event is in the on-failure queue. See docs/operations.md#redrive`,
    });
  }
}
