import { failureQueue } from './queues.ts';
import { Duration, NestedStack } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as scheduler from 'aws-cdk-lib/aws-scheduler';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { audienceRow, ivsEventRow, projectorRow, rebuildRow, recomputeRow } from '../functions/workers.ts';
import type { WorkerRow } from '../shared/routing/function-row.ts';
import { PROJECTED_ENTITIES } from '../shared/projection/projector.ts';
import { ApiFunction, type ApiFunctionDefaults, constructIdOf } from './api-function.ts';
import { type Monitoring, queuedMessages } from './monitoring.ts';
import { AsyncFailures } from './async-failures.ts';
import { streamPollerStatements } from './handlers/access.ts';

/**
 * How the projector reads the table stream (docs/operations.md, "Projector on AWS"). Exported so
 * the tests and the docs name the same figures.
 */
export const STREAM_MAPPING = {
  /**
   * TRIM_HORIZON: from the oldest record the stream still holds (24 h). On the first deploy the
   * table (and its stream) exist before the mapping does, and the API may already write; LATEST
   * would silently skip those writes, TRIM_HORIZON projects them. Records older than
   * `maxRecordAgeHours` are still skipped (to the on-failure queue), which the rebuild repairs.
   */
  startingPosition: lambda.StartingPosition.TRIM_HORIZON,
  batchSize: 100,
  /**
   * 1 s: a burst of writes becomes one invocation instead of one per record, at the price of at
   * most one second of extra view staleness (the stream itself adds well under a second).
   */
  maxBatchingWindowSeconds: 1,
  /** A failing batch is retried this many times (halved by bisection) before it is given up. */
  retryAttempts: 5,
  /** Older records are not retried any more: their batch pointer goes to the on-failure queue. */
  maxRecordAgeHours: 1,
  /**
   * One batch per shard at a time. A higher factor would keep the order per item key (Lambda
   * keeps records of one partition key in order across the concurrent batches of a shard), but
   * concurrent batches update the same view sets and list totals and would conflict in their
   * transactions; the catalogue's write rate needs no more than one.
   */
  parallelizationFactor: 1,
} as const;

/** The IVS event types the reducer handles (docs/ivs-events.md). */
export const IVS_DETAIL_TYPES = [
  'IVS Stream State Change',
  'IVS Stream Health Change',
  'IVS Recording State Change',
  'IVS Limit Breach',
] as const;
/** IteratorAge above this (ms) for 5 minutes: views are a minute or more behind the table. */
export const ITERATOR_AGE_ALARM_MS = 60_000;

/**
 * The event filter: only records whose new image (INSERT, MODIFY) or old image (REMOVE) is a
 * source item of one of PROJECTED_ENTITIES invoke the projector; views, view sets, counters and
 * sessions never do. Two filters, which Lambda ORs. Built from the constant, so it follows it.
 */
export const streamFilters = (): Array<Record<string, unknown>> => {
  const entityIs = { entity: { S: lambda.FilterRule.or(...PROJECTED_ENTITIES) } };
  return [
    lambda.FilterCriteria.filter({ dynamodb: { NewImage: entityIs } }),
    lambda.FilterCriteria.filter({ dynamodb: { OldImage: entityIs } }),
  ];
};

export interface ProjectorProps extends ApiFunctionDefaults {
  /** The table (its stream: NEW_AND_OLD_IMAGES). */
  table: dynamodb.Table;
  /** Its topic receives every alarm here; its dashboard gets a projector row. */
  monitoring: Monitoring;
}

/**
 * The functions no route invokes, in their own nested stack (`Workers`) so the parent and the
 * route stacks keep their resource budgets (docs/operations.md):
 * - the projector (functions/workers.ts `projectorRow`) on the table stream: an event source
 *   mapping that only source-item records pass, ReportBatchItemFailures, bisection, bounded
 *   retries and record age, and an SQS on-failure queue;
 * - the recompute (`recomputeRow`), invoked hourly by an EventBridge Scheduler schedule, and the
 *   audience publisher (`audienceRow`), every minute;
 * - the rebuild (`rebuildRow`), invoked by an operator only;
 * - their alarms (to the Monitoring topic) and a dashboard row.
 */
export class Projector extends NestedStack {
  readonly projector: ApiFunction;
  readonly recompute: ApiFunction;
  readonly audiences: ApiFunction;
  readonly ivsEvents: ApiFunction;
  readonly rebuild: ApiFunction;
  readonly mapping: lambda.EventSourceMapping;
  /** The projector's on-failure destination: pointers to batches it gave up on. */
  readonly failures: sqs.Queue;
  /** The recompute schedule's dead-letter queue: invocations Scheduler could not deliver. */
  readonly scheduleFailures: sqs.Queue;
  readonly schedule: scheduler.Schedule;
  /** The on-failure queues of the asynchronously invoked functions (IVS events, the two schedules). */
  readonly asyncFailures: AsyncFailures[];

  constructor(scope: Construct, id: string, props: ProjectorProps) {
    super(scope, id, {
      description: 'Workers: the projector on the table stream, the hourly recompute, the rebuild',
    });
    const { table, monitoring } = props;
    const defaults: ApiFunctionDefaults = {
      resources: props.resources,
      environment: props.environment,
      logGroup: props.logGroup,
      code: props.code,
    };
    const fnOf = (row: WorkerRow) => new ApiFunction(this, constructIdOf(row.handler), { ...defaults, row });
    /**
     * An EventBridge Scheduler schedule invoking `fn` every `every`, with a role that may invoke
     * only it and a dead-letter queue for invocations Scheduler could not deliver (it retries
     * throttling and service errors up to 3 times within one period first).
     */
    const scheduled = (
      name: string,
      fn: lambda.IFunction,
      options: { description: string; every: Duration; dlqReason: string },
    ) => {
      const failures = failureQueue(this, `${name}ScheduleFailures`, options.dlqReason);
      const role = new iam.Role(this, `${name}ScheduleRole`, {
        assumedBy: new iam.ServicePrincipal('scheduler.amazonaws.com', {
          conditions: { StringEquals: { 'aws:SourceAccount': this.account } },
        }),
        description: `EventBridge Scheduler: invokes the ${name.toLowerCase()} function, nothing else`,
        inlinePolicies: {
          invoke: new iam.PolicyDocument({
            statements: [
              new iam.PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [fn.functionArn] }),
              new iam.PolicyStatement({ actions: ['sqs:SendMessage'], resources: [failures.queueArn] }),
            ],
          }),
        },
      });
      const schedule = new scheduler.Schedule(this, `${name}Schedule`, {
        description: options.description,
        schedule: scheduler.ScheduleExpression.rate(options.every),
        timeWindow: scheduler.TimeWindow.off(),
        target: {
          bind: () => ({
            arn: fn.functionArn,
            role,
            retryPolicy: {
              maximumRetryAttempts: 3,
              maximumEventAgeInSeconds: Math.max(60, options.every.toSeconds()),
            },
            deadLetterConfig: { arn: failures.queueArn },
          }),
        },
      });
      return { schedule, failures };
    };

    // ── Projector ──────────────────────────────────────────────────────────────────────────────
    this.projector = fnOf(projectorRow);
    const streamArn = table.tableStreamArn;
    if (!streamArn) throw new Error('The projector needs the table stream (NEW_AND_OLD_IMAGES)');
    // What Lambda's poller needs of the stream (ListStreams can only be granted on '*').
    for (const statement of streamPollerStatements(streamArn)) {
      this.projector.fn.addToRolePolicy(
        new iam.PolicyStatement({ actions: [...statement.actions], resources: [...statement.resources] }),
      );
    }
    this.failures = failureQueue(
      this,
      'ProjectorFailures',
      'This queue is itself a dead-letter destination (the stream mapping on-failure destination); nothing redrives from it automatically: an operator inspects and purges it (docs/operations.md).',
    );
    this.mapping = new lambda.EventSourceMapping(this, 'StreamMapping', {
      target: this.projector.fn,
      eventSourceArn: streamArn,
      startingPosition: STREAM_MAPPING.startingPosition,
      batchSize: STREAM_MAPPING.batchSize,
      maxBatchingWindow: Duration.seconds(STREAM_MAPPING.maxBatchingWindowSeconds),
      reportBatchItemFailures: true,
      bisectBatchOnError: true,
      retryAttempts: STREAM_MAPPING.retryAttempts,
      maxRecordAge: Duration.hours(STREAM_MAPPING.maxRecordAgeHours),
      parallelizationFactor: STREAM_MAPPING.parallelizationFactor,
      // Grants the function's role sqs:SendMessage (and the queue's attributes/URL) on this queue.
      onFailure: new SqsDlq(this.failures),
      filters: streamFilters(),
    });

    // ── Recompute (hourly) and audiences (every minute) ────────────────────────────────────────
    this.recompute = fnOf(recomputeRow);
    const recomputeSchedule = scheduled('Recompute', this.recompute.fn, {
      description: 'Hourly: moves the 7-day trending windows and the new flag on (recompute function)',
      every: Duration.hours(1),
      dlqReason:
        "This queue is itself a dead-letter queue (the recompute schedule's); nothing redrives from it: the next hourly run recomputes anyway.",
    });
    this.schedule = recomputeSchedule.schedule;
    this.scheduleFailures = recomputeSchedule.failures;
    this.audiences = fnOf(audienceRow);
    const audienceSchedule = scheduled('Audience', this.audiences.fn, {
      description: 'Every minute: live viewer counts onto the live list (audience function)',
      every: Duration.minutes(1),
      dlqReason:
        "This queue is itself a dead-letter queue (the audience schedule's); nothing redrives from it: the next minute's run publishes anyway.",
    });

    // ── IVS events (EventBridge rule on aws.ivs) ───────────────────────────────────────────────
    this.ivsEvents = fnOf(ivsEventRow);
    const ivsEventFailures = failureQueue(
      this,
      'IvsEventFailures',
      "This queue is itself a dead-letter queue (the IVS rule's target); nothing redrives from it: the per-minute reconcile corrects the live state anyway.",
    );
    new events.Rule(this, 'IvsEventsRule', {
      description: 'IVS stream state, health, recording and limit events to the IVS event function',
      eventPattern: { source: ['aws.ivs'], detailType: [...IVS_DETAIL_TYPES] },
      targets: [
        new targets.LambdaFunction(this.ivsEvents.fn, {
          // EventBridge retries delivery (throttling, errors) for an hour, then dead-letters it.
          retryAttempts: 8,
          maxEventAge: Duration.hours(1),
          deadLetterQueue: ivsEventFailures,
        }),
      ],
    });

    // ── Rebuild (operator) ─────────────────────────────────────────────────────────────────────
    this.rebuild = fnOf(rebuildRow);

    // ── Alarms and dashboard ───────────────────────────────────────────────────────────────────
    // Errors and throttles of the three functions, grouped like every other function's.
    monitoring.watchFunctions(this, 'Workers', [
      this.projector.fn,
      this.recompute.fn,
      this.audiences.fn,
      this.ivsEvents.fn,
      this.rebuild.fn,
    ]);
    // Every function invoked asynchronously (the IVS rule, the two schedules) keeps the events its
    // invocations failed on: an on-failure queue with an alarm each (infra/async-failures.ts).
    this.asyncFailures = [
      new AsyncFailures(this, 'IvsEventsAsyncFailures', {
        fn: this.ivsEvents.fn,
        monitoring,
        description: 'IVS event function',
      }),
      new AsyncFailures(this, 'RecomputeAsyncFailures', {
        fn: this.recompute.fn,
        monitoring,
        description: 'Recompute function',
      }),
      new AsyncFailures(this, 'AudienceAsyncFailures', {
        fn: this.audiences.fn,
        monitoring,
        description: 'Audience function (live minute)',
      }),
    ];
    /** A scheduled function's two alarms (it failed; Scheduler could not invoke it) and their graph. */
    const scheduleAlarms = (
      name: string,
      fn: lambda.IFunction,
      failures: sqs.Queue,
      options: { period: Duration; title: string; stale: string },
    ) => {
      const errors = fn.metricErrors({ statistic: 'Sum', period: options.period });
      monitoring.alarm(this, `${name}Errors`, {
        metric: errors,
        threshold: 1,
        evaluationPeriods: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        alarmDescription: `${options.title} failed: ${options.stale}. See docs/operations.md#projector-on-aws`,
      });
      const undelivered = queuedMessages(failures);
      monitoring.alarm(this, `${name}Undelivered`, {
        metric: undelivered,
        threshold: 1,
        evaluationPeriods: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        alarmDescription: `EventBridge Scheduler could not invoke the ${name.toLowerCase()} function (permissions, throttling, function missing). See docs/operations.md#projector-on-aws`,
      });
      return new cloudwatch.GraphWidget({
        title: options.title,
        left: [errors.with({ label: 'errors' }), undelivered.with({ label: 'not delivered (schedule DLQ)' })],
        width: 8,
      });
    };
    const iteratorAge = this.projector.fn.metric('IteratorAge', {
      statistic: 'Maximum',
      period: Duration.minutes(1),
    });
    monitoring.alarm(this, 'ProjectorIteratorAge', {
      metric: iteratorAge,
      threshold: ITERATOR_AGE_ALARM_MS,
      evaluationPeriods: 5,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      alarmDescription:
        'Projector: the newest record it read was over 60 s old for 5 minutes (views are stale). See docs/operations.md#projector-on-aws',
    });
    const failedBatches = queuedMessages(this.failures);
    monitoring.alarm(this, 'ProjectorFailedBatches', {
      metric: failedBatches,
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      alarmDescription:
        'Projector gave up on stream records (retries or max age exhausted): some views are wrong until the rebuild runs. See docs/operations.md#projector-on-aws',
    });
    const projectorErrors = this.projector.fn.metricErrors({ statistic: 'Sum', period: Duration.minutes(5) });
    monitoring.alarm(this, 'ProjectorErrors', {
      metric: projectorErrors,
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      alarmDescription:
        'Projector invocation failed (crash, timeout, out of memory: record failures are reported per item, not here); the batch is retried. See docs/operations.md#projector-on-aws',
    });
    const ivsErrors = this.ivsEvents.fn.metricErrors({ statistic: 'Sum', period: Duration.minutes(5) });
    monitoring.alarm(this, 'IvsEventErrors', {
      metric: ivsErrors,
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      alarmDescription:
        'IVS event function failed (EventBridge retries): live state may lag until the reconcile. See docs/operations.md#projector-on-aws',
    });
    const ivsUndelivered = queuedMessages(ivsEventFailures);
    monitoring.alarm(this, 'IvsEventsUndelivered', {
      metric: ivsUndelivered,
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      alarmDescription:
        'IVS events could not be delivered to the IVS event function for an hour (dead-letter queue). See docs/operations.md#projector-on-aws',
    });
    // Domain metrics the functions emit (CloudWatch EMF, shared/observability): IVS limit
    // breaches (concurrent streams or views, ingest bitrate; functions/live/ivs-event.ts) and
    // viewer revocations IVS refused when a session ended (shared/ivs/revocation.ts).
    const domainMetric = (metricName: string) =>
      new cloudwatch.Metric({
        namespace: 'CreatorStreaming',
        metricName,
        dimensionsMap: { service: 'creator-streaming' },
        statistic: 'Sum',
        period: Duration.minutes(5),
      });
    monitoring.alarm(this, 'IvsLimitBreaches', {
      metric: domainMetric('ivs_limit_breaches'),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      alarmDescription:
        'IVS reported a limit breach (concurrent views or broadcasts, ingest bitrate or resolution): viewers or creators are being refused; ask for a quota increase. See docs/live.md',
    });
    monitoring.alarm(this, 'ViewerRevocationsFailed', {
      metric: domainMetric('viewer_revocations_failed'),
      threshold: 10,
      evaluationPeriods: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      alarmDescription:
        'IVS refused 10 or more viewer revocations in 5 minutes (throttling): ended watch sessions may keep playing until their players reload. See docs/live.md "Playback tokens"',
    });
    const scheduleWidgets = [
      scheduleAlarms('Recompute', this.recompute.fn, recomputeSchedule.failures, {
        period: Duration.hours(1),
        title: 'Recompute (hourly)',
        stale: 'trending and new flags may be an hour or more stale',
      }),
      scheduleAlarms('Audience', this.audiences.fn, audienceSchedule.failures, {
        period: Duration.minutes(5),
        title: 'Audiences (every minute)',
        stale: 'watching_now in the live lists stops following the live counters',
      }),
    ];
    monitoring.dashboard.addWidgets(
      new cloudwatch.GraphWidget({
        title: 'Projector iterator age (ms)',
        left: [iteratorAge.with({ label: 'max' })],
        width: 8,
      }),
      new cloudwatch.GraphWidget({
        title: 'Projector failures',
        left: [
          projectorErrors.with({ label: 'invocation errors' }),
          failedBatches.with({ label: 'batches given up (on-failure queue)' }),
        ],
        width: 8,
      }),
      ...scheduleWidgets,
    );
  }
}
