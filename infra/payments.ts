import { Duration, NestedStack, type RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as scheduler from 'aws-cdk-lib/aws-scheduler';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { reconcileRow } from '../functions/payments/workers.ts';
import { PAYMENT_DEFAULTS, type PaymentDeployment } from '../shared/payments/access.ts';
import { STORE_DEFAULTS, type StoreDeployment } from '../shared/stores/access.ts';
import { ApiFunction, type ApiFunctionDefaults, constructIdOf } from './api-function.ts';
import type { Monitoring } from './monitoring.ts';
import { AsyncFailures } from './async-failures.ts';

/** The reconcile's figures (docs/payments.md, "Failure figures"). */
export const PAYMENTS_RECONCILE = {
  every: Duration.days(1),
  timeout: Duration.minutes(10),
  /** Any repair is worth a look: each one is an event the webhook missed or a drift. */
  repairAlarmThreshold: 1,
} as const;

export interface PaymentsProps extends ApiFunctionDefaults {
  monitoring: Monitoring;
  removalPolicy: RemovalPolicy;
}

/**
 * Payments (nested stack, docs/payments.md "On AWS"): the Stripe secret (JSON `{secret_key,
 * webhook_secret, connect_webhook_secret}`; the stack creates it EMPTY of Stripe's values, an
 * operator puts them in: no key is ever in the template or an environment variable), the daily
 * reconcile on an EventBridge Scheduler schedule with its dead-letter queue, and the alarms
 * (reconcile failed, schedule undelivered, repairs made). Created before the route stacks: the
 * Stripe-calling routes read `deployment`.
 */
export class Payments extends NestedStack {
  readonly secret: secretsmanager.Secret;
  readonly deployment: PaymentDeployment;
  /** The app stores' secrets (created empty, an operator fills them) and the apps' identities. */
  readonly stores: StoreDeployment;
  readonly reconcile: ApiFunction;
  readonly scheduleFailures: sqs.Queue;
  readonly alarms: cloudwatch.Alarm[] = [];
  /** The reconcile's on-failure queue: scheduled runs that failed after Lambda's retries (infra/async-failures.ts). */
  readonly reconcileFailures: AsyncFailures;

  constructor(scope: Construct, id: string, props: PaymentsProps) {
    super(scope, id, { description: 'Payments: the Stripe secret, the daily reconcile and its alarms' });
    this.secret = new secretsmanager.Secret(this, 'StripeSecret', {
      description:
        'Stripe: {"secret_key","webhook_secret","connect_webhook_secret"}, put in by an operator (docs/payments.md)',
      removalPolicy: props.removalPolicy,
    });
    Validations.of(this.secret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        "Stripe's keys are rolled in Stripe's dashboard (a new restricted key, new endpoint secrets), then put here by an operator; Secrets Manager cannot rotate them (docs/payments.md).",
    });
    this.deployment = { stripeSecretArn: this.secret.secretArn, ...PAYMENT_DEFAULTS };
    // The app stores (docs/payments.md, "App stores: a real setup"): Apple's root certificates and
    // App Store Server API key; Google Play's service account key. Empty until an operator fills them.
    const storeSecret = (id: string, description: string, reason: string) => {
      const secret = new secretsmanager.Secret(this, id, { description, removalPolicy: props.removalPolicy });
      Validations.of(secret).acknowledge({ id: 'AwsSolutions-SMG4', reason });
      return secret;
    };
    const appStore = storeSecret(
      'AppStoreSecret',
      'App Store: {"root_certificates":[base64 DER of AppleRootCA-G3...],"issuer_id","key_id","private_key"}, put in by an operator (docs/payments.md)',
      "Apple's roots change with Apple's PKI and the App Store Server API key is rolled in App Store Connect; an operator puts the new values here (docs/payments.md).",
    );
    const play = storeSecret(
      'PlaySecret',
      'Google Play: the service account JSON key (client_email, private_key, token_uri) of the Play Developer API, put in by an operator (docs/payments.md)',
      "Google service account keys are rolled in Google Cloud's console, then put here by an operator; Secrets Manager cannot rotate them (docs/payments.md).",
    );
    this.stores = { appStoreSecretArn: appStore.secretArn, playSecretArn: play.secretArn, ...STORE_DEFAULTS };
    this.reconcile = new ApiFunction(this, constructIdOf(reconcileRow.handler), {
      resources: { ...props.resources, payments: this.deployment },
      environment: props.environment,
      logGroup: props.logGroup,
      bundle: props.bundle,
      row: reconcileRow,
      timeout: PAYMENTS_RECONCILE.timeout,
    });
    this.scheduleFailures = new sqs.Queue(this, 'ReconcileScheduleFailures', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    Validations.of(this.scheduleFailures).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason:
        "This queue is itself a dead-letter queue (the reconcile schedule's); nothing redrives from it: the next daily run reconciles anyway.",
    });
    const fn = this.reconcile.fn;
    const role = new iam.Role(this, 'ReconcileScheduleRole', {
      assumedBy: new iam.ServicePrincipal('scheduler.amazonaws.com', {
        conditions: { StringEquals: { 'aws:SourceAccount': this.account } },
      }),
      description: 'EventBridge Scheduler: invokes the payments reconcile function, nothing else',
      inlinePolicies: {
        invoke: new iam.PolicyDocument({
          statements: [
            new iam.PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [fn.functionArn] }),
            new iam.PolicyStatement({
              actions: ['sqs:SendMessage'],
              resources: [this.scheduleFailures.queueArn],
            }),
          ],
        }),
      },
    });
    new scheduler.Schedule(this, 'ReconcileSchedule', {
      description: 'Daily: entitlements reconciled with Stripe (payments reconcile function)',
      schedule: scheduler.ScheduleExpression.rate(PAYMENTS_RECONCILE.every),
      timeWindow: scheduler.TimeWindow.off(),
      target: {
        bind: () => ({
          arn: fn.functionArn,
          role,
          retryPolicy: { maximumRetryAttempts: 3, maximumEventAgeInSeconds: 3600 },
          deadLetterConfig: { arn: this.scheduleFailures.queueArn },
        }),
      },
    });

    props.monitoring.watchFunctions(this, 'PaymentWorkers', [fn]);
    const action = new SnsAction(props.monitoring.topic);
    // Scheduler invokes asynchronously: a run that fails after Lambda's retries is kept, with an alarm.
    this.reconcileFailures = new AsyncFailures(this, 'ReconcileAsyncFailures', {
      fn,
      action,
      description: 'Payments reconcile function',
    });
    this.alarms.push(this.reconcileFailures.alarm);
    const alarm = (alarmId: string, metric: cloudwatch.IMetric, threshold: number, description: string) => {
      const created = new cloudwatch.Alarm(this, alarmId, {
        metric,
        threshold,
        evaluationPeriods: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
        alarmDescription: description,
      });
      created.addAlarmAction(action);
      created.addOkAction(action);
      this.alarms.push(created);
    };
    alarm(
      'ReconcileErrors',
      fn.metricErrors({ statistic: 'Sum', period: Duration.days(1) }),
      1,
      'The payments reconcile failed: entitlements may drift from Stripe until the next run. See docs/payments.md#failure-figures',
    );
    alarm(
      'ReconcileUndelivered',
      this.scheduleFailures.metricApproximateNumberOfMessagesVisible({
        statistic: 'Maximum',
        period: Duration.minutes(5),
      }),
      1,
      'EventBridge Scheduler could not invoke the payments reconcile. See docs/payments.md#failure-figures',
    );
    alarm(
      'PaymentRepairs',
      new cloudwatch.Metric({
        namespace: 'CreatorStreaming',
        metricName: 'PaymentRepairs',
        dimensionsMap: { service: 'creator-streaming' },
        statistic: 'Sum',
        period: Duration.days(1),
      }),
      PAYMENTS_RECONCILE.repairAlarmThreshold,
      'The payments reconcile repaired entitlements: Stripe webhooks were missed or mis-applied. See docs/payments.md#failure-figures',
    );
  }
}
