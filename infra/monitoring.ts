import { Duration } from 'aws-cdk-lib';
import type * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

/** CloudWatch allows at most 10 metrics in one metric-math alarm. */
export const METRICS_PER_ALARM = 10;

const FIVE_MINUTES = Duration.minutes(5);

export interface MonitoringProps {
  api: apigw.HttpApi;
  stageName: string;
  table: dynamodb.Table;
  indexNames: readonly string[];
  alarmEmail?: string;
}

const chunk = <T>(items: readonly T[], size: number): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
};

/** `e0 + e1 + ...` over up to 10 metrics: one time series for a group of functions. */
const sumOf = (metrics: cloudwatch.IMetric[], prefix: string, label: string): cloudwatch.MathExpression =>
  new cloudwatch.MathExpression({
    expression: metrics.map((_, i) => `FILL(${prefix}${i}, 0)`).join(' + '),
    usingMetrics: Object.fromEntries(metrics.map((metric, i) => [`${prefix}${i}`, metric])),
    period: FIVE_MINUTES,
    label,
  });

/**
 * Alarms (to one SNS topic) and a dashboard. What each alarm means and where to look:
 * docs/operations.md. Lambda errors and throttles are aggregated ten functions per alarm (the
 * metric-math limit), which keeps the alarm count at n/5 instead of 2n for n functions; those
 * alarms live beside their functions (`watchFunctions`, called once per route stack).
 */
export class Monitoring extends Construct {
  readonly topic: sns.Topic;
  readonly alarms: cloudwatch.Alarm[] = [];
  /** The service dashboard: constructs add their own rows (e.g. the projector, infra/projector.ts). */
  readonly dashboard: cloudwatch.Dashboard;
  private readonly action: SnsAction;
  private readonly lambdaErrors: cloudwatch.GraphWidget;
  private readonly lambdaThrottles: cloudwatch.GraphWidget;
  /** Groups watched so far: metric-math ids stay unique across the dashboard's graphs. */
  private groups = 0;

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);
    this.topic = new sns.Topic(this, 'AlarmTopic', {
      displayName: 'Creator streaming alarms',
      enforceSSL: true,
    });
    if (props.alarmEmail) this.topic.addSubscription(new subscriptions.EmailSubscription(props.alarmEmail));
    this.action = new SnsAction(this.topic);

    const { api } = props;
    const requests = api.metricCount({ period: FIVE_MINUTES, statistic: 'Sum' });
    const serverErrors = api.metricServerError({ period: FIVE_MINUTES, statistic: 'Sum' });
    const errorRate = new cloudwatch.MathExpression({
      expression: 'IF(requests > 0, 100 * errors / requests, 0)',
      usingMetrics: { requests, errors: serverErrors },
      period: FIVE_MINUTES,
      label: '5xx rate (%)',
    });
    this.alarm(this, 'Api5xxRate', {
      metric: errorRate,
      threshold: 2,
      evaluationPeriods: 3,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      alarmDescription:
        'API 5xx responses above 2% of requests for 15 minutes. See docs/operations.md#alarms',
    });
    const p99 = api.metricLatency({ period: FIVE_MINUTES, statistic: 'p99' });
    this.alarm(this, 'ApiLatencyP99', {
      metric: p99,
      threshold: 2000,
      evaluationPeriods: 3,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      alarmDescription: 'API p99 latency above 2 s for 15 minutes. See docs/operations.md#alarms',
    });

    const { table } = props;
    const throttleMetric = (metricName: string, index?: string) =>
      new cloudwatch.Metric({
        namespace: 'AWS/DynamoDB',
        metricName,
        dimensionsMap: index
          ? { TableName: table.tableName, GlobalSecondaryIndexName: index }
          : { TableName: table.tableName },
        period: FIVE_MINUTES,
        statistic: 'Sum',
      });
    const dynamoThrottles = sumOf(
      [undefined, ...props.indexNames].flatMap((index) => [
        throttleMetric('ReadThrottleEvents', index),
        throttleMetric('WriteThrottleEvents', index),
      ]),
      'd',
      'DynamoDB throttle events (table and GSIs)',
    );
    this.alarm(this, 'DynamoDbThrottles', {
      metric: dynamoThrottles,
      threshold: 10,
      evaluationPeriods: 2,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      alarmDescription:
        'DynamoDB throttled 10+ reads/writes per 5 minutes for 10 minutes (callers get 503). See docs/operations.md#alarms',
    });

    // Filled by watchFunctions: one series per group of ten functions.
    this.lambdaErrors = new cloudwatch.GraphWidget({ title: 'Lambda errors per group', width: 8 });
    this.lambdaThrottles = new cloudwatch.GraphWidget({ title: 'Lambda throttles per group', width: 8 });
    this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', {
      defaultInterval: Duration.hours(6),
      widgets: [
        [
          new cloudwatch.GraphWidget({
            title: 'Requests and errors',
            left: [requests, api.metricClientError({ period: FIVE_MINUTES, statistic: 'Sum' }), serverErrors],
            width: 8,
          }),
          new cloudwatch.GraphWidget({ title: '5xx rate (%)', left: [errorRate], width: 8 }),
          new cloudwatch.GraphWidget({
            title: 'Latency (ms)',
            left: [api.metricLatency({ period: FIVE_MINUTES, statistic: 'p50' }), p99],
            width: 8,
          }),
        ],
        [
          this.lambdaErrors,
          this.lambdaThrottles,
          new cloudwatch.GraphWidget({
            title: 'DynamoDB',
            left: [
              table.metricConsumedReadCapacityUnits({ period: FIVE_MINUTES }),
              table.metricConsumedWriteCapacityUnits({ period: FIVE_MINUTES }),
            ],
            right: [dynamoThrottles],
            width: 8,
          }),
        ],
      ],
    });
  }

  /**
   * Lambda errors and throttles alarms for `functions`, ten per alarm, created in `scope` (the
   * route stack that holds the functions, so each stack carries its own alarms), notifying the
   * topic; their series join the dashboard's Lambda graphs. `label` (a construct id, e.g. the
   * domain) names the alarms and their series.
   */
  watchFunctions(scope: Construct, label: string, functions: readonly lambda.Function[]): cloudwatch.Alarm[] {
    return chunk(functions, METRICS_PER_ALARM).flatMap((group, i) => {
      const n = this.groups++;
      const names = group.map((fn) => fn.node.scope?.node.id ?? fn.node.id).join(', ');
      const errors = sumOf(
        group.map((fn) => fn.metricErrors({ period: FIVE_MINUTES, statistic: 'Sum' })),
        `e${n}n`,
        `Lambda errors, ${label} ${i + 1}`,
      );
      const throttles = sumOf(
        group.map((fn) => fn.metricThrottles({ period: FIVE_MINUTES, statistic: 'Sum' })),
        `t${n}n`,
        `Lambda throttles, ${label} ${i + 1}`,
      );
      this.lambdaErrors.addLeftMetric(errors);
      this.lambdaThrottles.addLeftMetric(throttles);
      return [
        this.alarm(scope, `${label}LambdaErrors${i + 1}`, {
          metric: errors,
          threshold: 3,
          evaluationPeriods: 1,
          comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
          alarmDescription:
            `3+ Lambda errors (crashes, timeouts, out of memory) in 5 minutes in one of: ${names}. See docs/operations.md#alarms`.slice(
              0,
              1024,
            ),
        }),
        this.alarm(scope, `${label}LambdaThrottles${i + 1}`, {
          metric: throttles,
          threshold: 5,
          evaluationPeriods: 1,
          comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
          alarmDescription:
            `5+ Lambda throttles (concurrency exhausted) in 5 minutes in one of: ${names}. See docs/operations.md#alarms`.slice(
              0,
              1024,
            ),
        }),
      ];
    });
  }

  /**
   * An alarm in `scope` that notifies the topic when it fires and when it clears: by default one
   * period at or above `threshold` (CDK's comparison default), missing data not breaching. Every
   * alarm is made here except the analytics delivery alarm, which exists before the topic does
   * (infra/stack.ts gives it the topic's actions).
   */
  alarm(scope: Construct, alarmId: string, alarmProps: AlarmOptions): cloudwatch.Alarm {
    const created = new cloudwatch.Alarm(scope, alarmId, {
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      ...alarmProps,
      evaluationPeriods: alarmProps.evaluationPeriods ?? 1,
    });
    created.addAlarmAction(this.action);
    created.addOkAction(this.action);
    this.alarms.push(created);
    return created;
  }
}

/** What an alarm of `Monitoring.alarm` says (evaluation periods default to one). */
export type AlarmOptions = Omit<cloudwatch.AlarmProps, 'evaluationPeriods'> & { evaluationPeriods?: number };

/** Messages waiting in `queue` (its maximum over 5 minutes): a dead-letter or on-failure queue's alarm metric. */
export const queuedMessages = (queue: sqs.IQueue): cloudwatch.Metric =>
  queue.metricApproximateNumberOfMessagesVisible({ statistic: 'Maximum', period: FIVE_MINUTES });
