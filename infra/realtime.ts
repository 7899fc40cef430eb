import { Duration, NestedStack, Stack } from 'aws-cdk-lib';
import * as appsync from 'aws-cdk-lib/aws-appsync';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as scheduler from 'aws-cdk-lib/aws-scheduler';
import type { Construct } from 'constructs';
import { realtimeAuthorizerRow, realtimeTickRow } from '../functions/realtime/workers.ts';
import { LIVE_NAMESPACE, type RealtimeDeployment } from '../shared/realtime/access.ts';
import { ApiFunction, type ApiFunctionDefaults, constructIdOf } from './api-function.ts';
import { type Monitoring, queuedMessages } from './monitoring.ts';
import { AsyncFailures } from './async-failures.ts';
import { failureQueue } from './queues.ts';

export interface RealtimeProps extends ApiFunctionDefaults {
  monitoring: Monitoring;
}

/** The ticks one invocation runs (one a 5 s, for the minute until the next invocation). */
export const TICKS_PER_RUN = 12;

/**
 * Live state pushed to viewers (nested stack `Realtime`; docs/realtime.md): the AWS AppSync Event
 * API with its one channel namespace `live`, publishing with IAM only (the back end: the tick
 * function's `appsync:EventPublish` on the namespace) and connecting and subscribing through the
 * Lambda authoriser (functions/realtime/authorize-subscriber.ts: our short-lived realtime tokens,
 * each for its channels); the tick function (functions/realtime/publish-ticks.ts), invoked every
 * minute by EventBridge Scheduler for TICKS_PER_RUN ticks; alarms on publish errors, on the tick
 * function failing and on the schedule not delivering.
 */
export class Realtime extends NestedStack {
  readonly api: appsync.EventApi;
  readonly authorizer: ApiFunction;
  readonly ticks: ApiFunction;
  readonly deployment: RealtimeDeployment;

  constructor(scope: Construct, id: string, props: RealtimeProps) {
    super(scope, id, {
      description: 'Live state pushed to viewers: the AppSync Event API, its authoriser and the ticks',
    });
    const defaults = {
      environment: props.environment,
      logGroup: props.logGroup,
      code: props.code,
    };
    this.authorizer = new ApiFunction(this, constructIdOf(realtimeAuthorizerRow.handler), {
      ...defaults,
      resources: props.resources,
      row: realtimeAuthorizerRow,
    });
    const lambdaAuth: appsync.AppSyncAuthProvider = {
      authorizationType: appsync.AppSyncAuthorizationType.LAMBDA,
      // No cached answers: shared/realtime/authorizer.ts says why.
      lambdaAuthorizerConfig: { handler: this.authorizer.fn, resultsCacheTtl: Duration.seconds(0) },
    };
    this.api = new appsync.EventApi(this, 'EventApi', {
      apiName: `${Stack.of(this).stackName}-live`.slice(0, 64),
      authorizationConfig: {
        authProviders: [{ authorizationType: appsync.AppSyncAuthorizationType.IAM }, lambdaAuth],
        connectionAuthModeTypes: [appsync.AppSyncAuthorizationType.LAMBDA],
        defaultPublishAuthModeTypes: [appsync.AppSyncAuthorizationType.IAM],
        defaultSubscribeAuthModeTypes: [appsync.AppSyncAuthorizationType.LAMBDA],
      },
    });
    this.api.addChannelNamespace(LIVE_NAMESPACE, {
      authorizationConfig: {
        publishAuthModeTypes: [appsync.AppSyncAuthorizationType.IAM],
        subscribeAuthModeTypes: [appsync.AppSyncAuthorizationType.LAMBDA],
      },
    });
    this.deployment = {
      apiArn: this.api.apiArn,
      httpUrl: `https://${this.api.httpDns}`,
      realtimeUrl: `wss://${this.api.realtimeDns}/event/realtime`,
    };
    this.ticks = new ApiFunction(this, constructIdOf(realtimeTickRow.handler), {
      ...defaults,
      resources: { ...props.resources, realtime: this.deployment },
      row: realtimeTickRow,
    });

    // Every minute, { ticks: 12 }; a role that may invoke only the tick function; a DLQ.
    const failures = failureQueue(
      this,
      'TickScheduleFailures',
      "This queue is itself a dead-letter queue (the tick schedule's); nothing redrives from it: the next minute's run publishes full snapshots anyway.",
    );
    const role = new iam.Role(this, 'TickScheduleRole', {
      assumedBy: new iam.ServicePrincipal('scheduler.amazonaws.com', {
        conditions: { StringEquals: { 'aws:SourceAccount': this.account } },
      }),
      description: 'EventBridge Scheduler: invokes the realtime tick function, nothing else',
      inlinePolicies: {
        invoke: new iam.PolicyDocument({
          statements: [
            new iam.PolicyStatement({
              actions: ['lambda:InvokeFunction'],
              resources: [this.ticks.fn.functionArn],
            }),
            new iam.PolicyStatement({ actions: ['sqs:SendMessage'], resources: [failures.queueArn] }),
          ],
        }),
      },
    });
    new scheduler.Schedule(this, 'TickSchedule', {
      description: `Every minute: ${TICKS_PER_RUN} realtime ticks of 5 s (live state to the Event API)`,
      schedule: scheduler.ScheduleExpression.rate(Duration.minutes(1)),
      timeWindow: scheduler.TimeWindow.off(),
      target: {
        bind: () => ({
          arn: this.ticks.fn.functionArn,
          role,
          input: scheduler.ScheduleTargetInput.fromObject({ ticks: TICKS_PER_RUN }),
          retryPolicy: { maximumRetryAttempts: 0, maximumEventAgeInSeconds: 60 },
          deadLetterConfig: { arn: failures.queueArn },
        }),
      },
    });

    // Scheduler invokes asynchronously: a run that fails is kept with its error and alarmed, not
    // retried (a retry would overlap the next minute's run, which republishes everything anyway).
    new AsyncFailures(this, 'TickAsyncFailures', {
      fn: this.ticks.fn,
      monitoring: props.monitoring,
      description: 'Realtime tick function',
      replacedByNextRun: { maxEventAge: Duration.seconds(60) },
    });
    // Alarms: publishes AppSync refused or failed (the tick function's own count), the schedule
    // not delivering, and both functions' errors and throttles (watchFunctions).
    props.monitoring.alarm(this, 'PublishErrorsAlarm', {
      metric: new cloudwatch.Metric({
        namespace: props.environment.POWERTOOLS_METRICS_NAMESPACE ?? 'CreatorStreaming',
        metricName: 'RealtimePublishErrors',
        dimensionsMap: { service: props.environment.POWERTOOLS_SERVICE_NAME ?? 'creator-streaming' },
        statistic: 'Sum',
        period: Duration.minutes(5),
      }),
      threshold: 5,
      evaluationPeriods: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      alarmDescription:
        'The Event API refused or failed 5+ realtime publishes in 5 minutes (IAM, quota, outage): viewers see stale live state. See docs/realtime.md#quotas',
    });
    props.monitoring.alarm(this, 'TickUndeliveredAlarm', {
      metric: queuedMessages(failures),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      alarmDescription:
        'EventBridge Scheduler could not invoke the realtime tick function. See docs/realtime.md',
    });
    props.monitoring.watchFunctions(this, 'RealtimeWorkers', [this.authorizer.fn, this.ticks.fn]);
  }
}
