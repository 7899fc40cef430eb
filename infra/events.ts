import { Duration, NestedStack } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { failureQueue } from './queues.ts';
import type { Construct } from 'constructs';
import { eventPublisherRow } from '../functions/events/worker.ts';
import { publisherEnvironment, publisherStatements } from '../shared/events/access.ts';
import { PUBLISHED_ENTITIES } from '../shared/events/changes.ts';
import { ApiFunction, type ApiFunctionDefaults, constructIdOf } from './api-function.ts';
import { type Monitoring, queuedMessages } from './monitoring.ts';
import { streamPollerStatements } from './handlers/access.ts';

/**
 * How the event publisher reads the table stream (docs/events.md, "Failure path"). Exported so
 * the tests and the docs name the same figures.
 */
export const EVENT_STREAM_MAPPING = {
  /**
   * TRIM_HORIZON: nothing written before the mapping exists (first deploy) or while it is
   * replaced is skipped; what is published twice carries the same event ids.
   */
  startingPosition: lambda.StartingPosition.TRIM_HORIZON,
  batchSize: 100,
  /** No batching window: a creator going live is published as soon as the stream has it. */
  maxBatchingWindowSeconds: 0,
  /** A batch whose events cannot be put is retried this many times (halved by bisection). */
  retryAttempts: 10,
  /**
   * Records older than this are given up (their batch pointer to the on-failure queue): an event
   * hours late is worth less to a receiver than a shard that moves again.
   */
  maxRecordAgeHours: 6,
  /** One batch per shard at a time: events of one item are put in the order of its changes. */
  parallelizationFactor: 1,
} as const;

/** IteratorAge above this (ms) for 5 minutes: events are a minute or more late. */
export const EVENTS_ITERATOR_AGE_ALARM_MS = 60_000;
/** Entry failures PutEvents reported in 5 minutes (each retried) before the alarm: more than noise. */
export const FAILED_ENTRIES_ALARM = 5;

/** The stream filter: only changes of PUBLISHED_ENTITIES' items (new image, or old for a removal). */
export const eventStreamFilters = (): Array<Record<string, unknown>> => {
  const entityIs = { entity: { S: lambda.FilterRule.or(...PUBLISHED_ENTITIES) } };
  return [
    lambda.FilterCriteria.filter({ dynamodb: { NewImage: entityIs } }),
    lambda.FilterCriteria.filter({ dynamodb: { OldImage: entityIs } }),
  ];
};

export interface PlatformEventsProps extends ApiFunctionDefaults {
  /** The table (its stream: NEW_AND_OLD_IMAGES); the publisher is its second reader. */
  table: dynamodb.Table;
  /** Alarms go to its topic; its dashboard gets an events row. */
  monitoring: Monitoring;
}

/**
 * Domain events (docs/events.md), in their own nested stack (`Events`):
 * - `bus`: the stack's EventBridge bus. Its resource policy denies PutEvents to every principal
 *   but the publisher's role, so only the projection path publishes platform events.
 *   **Consumers add rules on it**, e.g. the webhook deliveries:
 *   `new events.Rule(scope, 'Id', { eventBus: platformEvents.bus, eventPattern: { source: [EVENT_SOURCE] }, targets: [...] })`
 *   (EVENT_SOURCE from shared/events/envelope.ts; match `detailType` for single types);
 * - the publisher (functions/events/publish-events.ts) on the table stream: an event source mapping
 *   filtered to PUBLISHED_ENTITIES, ReportBatchItemFailures, bisection, bounded retries and record
 *   age, an SQS on-failure queue; PutEvents on the bus only, and no table access;
 * - alarms (errors and throttles, iterator age, failed PutEvents entries, events refused by their
 *   schema, batches given up) to the Monitoring topic, and a dashboard row.
 */
export class PlatformEvents extends NestedStack {
  /** The bus platform events are put on (source EVENT_SOURCE, detail-type the event type). */
  readonly bus: events.EventBus;
  readonly publisher: ApiFunction;
  readonly mapping: lambda.EventSourceMapping;
  /** The mapping's on-failure destination: pointers to batches whose events were not published. */
  readonly failures: sqs.Queue;

  constructor(scope: Construct, id: string, props: PlatformEventsProps) {
    super(scope, id, {
      description: 'Domain events: the EventBridge bus and its publisher on the table stream',
    });
    const { table, monitoring } = props;
    this.bus = new events.EventBus(this, 'EventBus', {
      description: 'Platform events (docs/events.md): put by the event publisher only',
    });

    this.publisher = new ApiFunction(this, constructIdOf(eventPublisherRow.handler), {
      resources: props.resources,
      environment: props.environment,
      logGroup: props.logGroup,
      code: props.code,
      row: eventPublisherRow,
    });
    const fn = this.publisher.fn;
    for (const [name, value] of Object.entries(publisherEnvironment(this.bus.eventBusName)))
      fn.addEnvironment(name, value);
    for (const statement of publisherStatements(this.bus.eventBusArn))
      fn.addToRolePolicy(
        new iam.PolicyStatement({ actions: [...statement.actions], resources: [...statement.resources] }),
      );
    const role = fn.role!;
    this.bus.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: 'OnlyThePublisherPuts',
        effect: iam.Effect.DENY,
        principals: [new iam.AnyPrincipal()],
        actions: ['events:PutEvents'],
        resources: [this.bus.eventBusArn],
        conditions: { ArnNotEquals: { 'aws:PrincipalArn': role.roleArn } },
      }),
    );

    const streamArn = table.tableStreamArn;
    if (!streamArn) throw new Error('The event publisher needs the table stream (NEW_AND_OLD_IMAGES)');
    for (const statement of streamPollerStatements(streamArn)) {
      fn.addToRolePolicy(
        new iam.PolicyStatement({ actions: [...statement.actions], resources: [...statement.resources] }),
      );
    }
    this.failures = failureQueue(
      this,
      'EventPublisherFailures',
      "This queue is itself a dead-letter destination (the event stream mapping's on-failure destination); nothing redrives from it automatically: an operator inspects it (docs/events.md).",
    );
    this.mapping = new lambda.EventSourceMapping(this, 'EventStreamMapping', {
      target: fn,
      eventSourceArn: streamArn,
      startingPosition: EVENT_STREAM_MAPPING.startingPosition,
      batchSize: EVENT_STREAM_MAPPING.batchSize,
      maxBatchingWindow: Duration.seconds(EVENT_STREAM_MAPPING.maxBatchingWindowSeconds),
      reportBatchItemFailures: true,
      bisectBatchOnError: true,
      retryAttempts: EVENT_STREAM_MAPPING.retryAttempts,
      maxRecordAge: Duration.hours(EVENT_STREAM_MAPPING.maxRecordAgeHours),
      parallelizationFactor: EVENT_STREAM_MAPPING.parallelizationFactor,
      onFailure: new SqsDlq(this.failures),
      filters: eventStreamFilters(),
    });

    // ── Alarms and dashboard ───────────────────────────────────────────────────────────────────
    monitoring.watchFunctions(this, 'Events', [fn]);
    const domainMetric = (metricName: string) =>
      new cloudwatch.Metric({
        namespace: 'CreatorStreaming',
        metricName,
        dimensionsMap: { service: 'creator-streaming' },
        statistic: 'Sum',
        period: Duration.minutes(5),
      });
    const iteratorAge = fn.metric('IteratorAge', { statistic: 'Maximum', period: Duration.minutes(1) });
    monitoring.alarm(this, 'PublisherIteratorAge', {
      metric: iteratorAge,
      threshold: EVENTS_ITERATOR_AGE_ALARM_MS,
      evaluationPeriods: 5,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      alarmDescription:
        'Event publisher: the newest record it read was over 60 s old for 5 minutes (events are late). See docs/events.md#failure-path',
    });
    const failedEntries = domainMetric('events_failed_entries');
    monitoring.alarm(this, 'PublisherFailedEntries', {
      metric: failedEntries,
      threshold: FAILED_ENTRIES_ALARM,
      alarmDescription: `EventBridge refused ${FAILED_ENTRIES_ALARM} or more event entries in 5 minutes (each is retried; the batch fails when retries do not help). See docs/events.md#failure-path`,
    });
    monitoring.alarm(this, 'PublisherInvalidEvents', {
      metric: domainMetric('events_invalid'),
      threshold: 1,
      alarmDescription:
        'An event failed its catalogue schema and was not published (a mapping bug or an unexpected item). See docs/events.md#failure-path',
    });
    const givenUp = queuedMessages(this.failures);
    monitoring.alarm(this, 'PublisherFailedBatches', {
      metric: givenUp,
      threshold: 1,
      alarmDescription:
        'Event publisher gave up on stream records (retries or max age exhausted): their events were not published. See docs/events.md#failure-path',
    });
    monitoring.dashboard.addWidgets(
      new cloudwatch.GraphWidget({
        title: 'Event publisher iterator age (ms)',
        left: [iteratorAge.with({ label: 'max' })],
        width: 8,
      }),
      new cloudwatch.GraphWidget({
        title: 'Domain events',
        left: [domainMetric('events_published').with({ label: 'published' })],
        right: [
          failedEntries.with({ label: 'failed entries (retried)' }),
          givenUp.with({ label: 'batches given up (on-failure queue)' }),
        ],
        width: 8,
      }),
    );
  }
}
