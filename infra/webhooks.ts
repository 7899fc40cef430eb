import { Duration, NestedStack, type RemovalPolicy } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as kms from 'aws-cdk-lib/aws-kms';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { failureQueue, workQueue } from './queues.ts';
import type { Construct } from 'constructs';
import { fanOutRow, senderRow } from '../functions/webhooks/workers.ts';
import { EVENT_SOURCE } from '../shared/events/envelope.ts';
import type { WebhookDeployment } from '../shared/webhooks/access.ts';
import { ApiFunction, type ApiFunctionDefaults, constructIdOf } from './api-function.ts';
import { type Monitoring, queuedMessages } from './monitoring.ts';
import { AsyncFailures } from './async-failures.ts';

/**
 * The figures of the delivery queue and its consumer (docs/webhooks.md, "On AWS"), exported so
 * the tests and the docs name the same numbers.
 */
export const WEBHOOK_QUEUE = {
  /** The sender: up to 10 deliveries per invocation (its timeout: functions/webhooks/workers.ts). */
  batchSize: 10,
  /** Six times the function timeout (AWS's guidance for SQS event sources). */
  visibilityTimeoutSeconds: 180,
  /** A message failing this often (our own errors, not the receiver's) goes to the dead-letter queue. */
  maxReceiveCount: 5,
  /** At most this many senders at once: a slow receiver never takes the account's concurrency. */
  maxConcurrency: 20,
  /** The oldest message waiting longer than this (a hop is at most 15 min) means the sender lags. */
  ageAlarmSeconds: 1800,
} as const;

export interface WebhooksProps extends ApiFunctionDefaults {
  monitoring: Monitoring;
  removalPolicy: RemovalPolicy;
}

/**
 * Webhook deliveries (nested stack): the HMAC key subscription secrets derive from (KMS,
 * GENERATE_VERIFY_MAC; the secrets are never stored), the delivery queue (the outbox) with its
 * dead-letter queue, the fan-out function (target of a rule on the platform bus, added by
 * `subscribe`) and the sender (the queue's consumer, partial batch responses), with their
 * alarms. Created before the route stacks: the subscription routes use its key and queue
 * (`deployment`, handed to every function through ApiResources).
 */
export class Webhooks extends NestedStack {
  readonly key: kms.Key;
  readonly queue: sqs.Queue;
  readonly deadLetters: sqs.Queue;
  readonly deployment: WebhookDeployment;
  readonly fanOut: ApiFunction;
  readonly sender: ApiFunction;
  /** The fan-out's on-failure queue: events it failed on after Lambda's retries (infra/async-failures.ts). */
  readonly fanOutFailures: AsyncFailures;
  rule?: events.Rule;

  constructor(scope: Construct, id: string, props: WebhooksProps) {
    super(scope, id, { description: 'Webhooks: signing key, delivery outbox, fan-out and sender' });
    this.key = new kms.Key(this, 'SecretKey', {
      description: 'Webhook subscription secrets derive from this HMAC key (GenerateMac); never stored',
      keySpec: kms.KeySpec.HMAC_256,
      keyUsage: kms.KeyUsage.GENERATE_VERIFY_MAC,
      removalPolicy: props.removalPolicy,
    });
    this.deadLetters = failureQueue(
      this,
      'DeadLetters',
      'This queue is the dead-letter queue: deliveries that failed for about three days, and messages our sender failed on 5 times. An operator inspects and replays it (docs/webhooks.md).',
    );
    this.queue = workQueue(this, 'Deliveries', {
      settings: WEBHOOK_QUEUE,
      deadLetters: this.deadLetters,
      retentionDays: 4,
    });
    this.deployment = {
      keyId: this.key.keyId,
      keyArn: this.key.keyArn,
      queueUrl: this.queue.queueUrl,
      queueArn: this.queue.queueArn,
      deadLetterQueueUrl: this.deadLetters.queueUrl,
      deadLetterQueueArn: this.deadLetters.queueArn,
    };
    const defaults = {
      resources: { ...props.resources, webhooks: this.deployment },
      environment: props.environment,
      logGroup: props.logGroup,
      code: props.code,
    };
    this.fanOut = new ApiFunction(this, constructIdOf(fanOutRow.handler), { ...defaults, row: fanOutRow });
    this.sender = new ApiFunction(this, constructIdOf(senderRow.handler), {
      ...defaults,
      row: senderRow,
    });
    this.sender.fn.addEventSource(
      new SqsEventSource(this.queue, {
        batchSize: WEBHOOK_QUEUE.batchSize,
        reportBatchItemFailures: true,
        maxConcurrency: WEBHOOK_QUEUE.maxConcurrency,
      }),
    );

    // ── Alarms ─────────────────────────────────────────────────────────────────────────────────
    props.monitoring.watchFunctions(this, 'WebhookWorkers', [this.fanOut.fn, this.sender.fn]);
    this.fanOutFailures = new AsyncFailures(this, 'FanOutAsyncFailures', {
      fn: this.fanOut.fn,
      monitoring: props.monitoring,
      description: 'Webhook fan-out',
    });
    props.monitoring.alarm(this, 'DeadLettersAlarm', {
      metric: queuedMessages(this.deadLetters),
      threshold: 1,
      alarmDescription:
        'Webhook deliveries in the dead-letter queue: a receiver failed for about three days (its subscription is notification_failures_exceeded) or the sender failed on a message 5 times. See docs/webhooks.md#failures',
    });
    props.monitoring.alarm(this, 'DeliveryLagAlarm', {
      metric: this.queue.metricApproximateAgeOfOldestMessage({
        statistic: 'Maximum',
        period: Duration.minutes(5),
      }),
      threshold: WEBHOOK_QUEUE.ageAlarmSeconds,
      alarmDescription:
        'The oldest webhook delivery message waited over 30 minutes (no wait is longer than 15 minutes per hop): the sender lags or fails. See docs/webhooks.md#failures',
    });
  }

  /** The rule on the platform bus: every platform event to the fan-out (failed invocations to the dead letters). */
  subscribe(bus: events.IEventBus): events.Rule {
    this.rule = new events.Rule(this, 'PlatformEventsRule', {
      description: 'Platform events to the webhook fan-out (docs/webhooks.md)',
      eventBus: bus,
      eventPattern: { source: [EVENT_SOURCE] },
      targets: [
        new targets.LambdaFunction(this.fanOut.fn, {
          retryAttempts: 8,
          maxEventAge: Duration.hours(6),
          deadLetterQueue: this.deadLetters,
        }),
      ],
    });
    return this.rule;
  }
}
