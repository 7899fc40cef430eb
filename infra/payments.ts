import { Duration, NestedStack, type RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as scheduler from 'aws-cdk-lib/aws-scheduler';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { failureQueue } from './queues.ts';
import type { Construct } from 'constructs';
import { reconcileRow, storeReconcileRow } from '../functions/payments/workers.ts';
import type { WorkerRow } from '../shared/routing/function-row.ts';
import { PAYMENT_DEFAULTS, type PaymentDeployment } from '../shared/payments/access.ts';
import { STORE_DEFAULTS, type StoreDeployment } from '../shared/stores/access.ts';
import { STORE_RECONCILE } from '../shared/stores/reconcile-window.ts';
import { ApiFunction, type ApiFunctionDefaults, constructIdOf } from './api-function.ts';
import { type Monitoring, queuedMessages } from './monitoring.ts';
import { AsyncFailures } from './async-failures.ts';

/** The reconcile's figures (docs/payments.md, "Failure figures"). */
export const PAYMENTS_RECONCILE = {
  every: Duration.days(1),
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
  /** The app-store reconcile (every 6 hours: shared/stores/reconcile.ts). */
  readonly storeReconcile: ApiFunction;
  readonly scheduleFailures: sqs.Queue;
  /** The reconcile's on-failure queue: scheduled runs that failed after Lambda's retries (infra/async-failures.ts). */
  readonly reconcileFailures: AsyncFailures;
  readonly storeReconcileFailures: AsyncFailures;

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
    const stripeRun = this.scheduled(props, {
      id: 'Reconcile',
      row: reconcileRow,
      resources: { ...props.resources, payments: this.deployment },
      every: PAYMENTS_RECONCILE.every,
      name: 'payments reconcile',
      schedule: 'Daily: entitlements reconciled with Stripe (payments reconcile function)',
      dlqReason:
        "This queue is itself a dead-letter queue (the reconcile schedule's); nothing redrives from it: the next daily run reconciles anyway.",
      failedMeans: 'entitlements may drift from Stripe until the next run',
    });
    this.reconcile = stripeRun.reconcile;
    this.scheduleFailures = stripeRun.scheduleFailures;
    this.reconcileFailures = stripeRun.failures;
    const storeRun = this.scheduled(props, {
      id: 'StoreReconcile',
      row: storeReconcileRow,
      resources: { ...props.resources, payments: this.deployment, stores: this.stores },
      every: Duration.hours(STORE_RECONCILE.everyHours),
      name: 'app-store reconcile',
      schedule:
        'Every 6 hours: app-store subscriptions close to expiry re-read from Apple and Google (app-store reconcile function)',
      dlqReason:
        "This queue is itself a dead-letter queue (the store reconcile schedule's); nothing redrives from it: the next run, 6 hours later, checks the same subscriptions.",
      failedMeans: 'a lost store notification stays unrepaired until the next run',
    });
    this.storeReconcile = storeRun.reconcile;
    this.storeReconcileFailures = storeRun.failures;
    props.monitoring.watchFunctions(this, 'PaymentWorkers', [this.reconcile.fn, this.storeReconcile.fn]);
    props.monitoring.alarm(this, 'PaymentRepairs', {
      metric: paymentMetric('PaymentRepairs', Duration.days(1)),
      threshold: PAYMENTS_RECONCILE.repairAlarmThreshold,
      alarmDescription:
        'The payments reconcile repaired entitlements: Stripe webhooks were missed or mis-applied. See docs/payments.md#failure-figures',
    });
    props.monitoring.alarm(this, 'StoreDrift', {
      metric: paymentMetric('StoreDrift', Duration.hours(STORE_RECONCILE.everyHours)),
      threshold: 1,
      alarmDescription:
        'The app-store reconcile corrected entitlements: App Store or Play notifications were lost or mis-applied. See docs/payments.md#failure-figures',
    });
    props.monitoring.alarm(this, 'StoreCheckErrors', {
      metric: paymentMetric('StoreCheckErrors', Duration.hours(STORE_RECONCILE.everyHours)),
      threshold: 1,
      alarmDescription:
        'The app-store reconcile could not ask Apple or Google about some subscriptions (left unchanged; an outage, a revoked key, an unknown purchase). See docs/payments.md#failure-figures',
    });
  }

  /**
   * One scheduled reconcile: its function (from its row), an EventBridge Scheduler schedule (3
   * retries, a dead-letter queue, a role that may invoke only it), its on-failure queue, and the
   * alarms: the run failed, the schedule could not deliver.
   */
  private scheduled(
    props: PaymentsProps,
    o: {
      id: string;
      row: WorkerRow;
      resources: ApiFunctionDefaults['resources'];
      every: Duration;
      /** `payments reconcile`: what alarms and descriptions call it. */
      name: string;
      schedule: string;
      dlqReason: string;
      failedMeans: string;
    },
  ) {
    const reconcile = new ApiFunction(this, constructIdOf(o.row.handler), {
      resources: o.resources,
      environment: props.environment,
      logGroup: props.logGroup,
      code: props.code,
      row: o.row,
    });
    const scheduleFailures = failureQueue(this, `${o.id}ScheduleFailures`, o.dlqReason);
    const fn = reconcile.fn;
    const role = new iam.Role(this, `${o.id}ScheduleRole`, {
      assumedBy: new iam.ServicePrincipal('scheduler.amazonaws.com', {
        conditions: { StringEquals: { 'aws:SourceAccount': this.account } },
      }),
      description: `EventBridge Scheduler: invokes the ${o.name} function, nothing else`,
      inlinePolicies: {
        invoke: new iam.PolicyDocument({
          statements: [
            new iam.PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [fn.functionArn] }),
            new iam.PolicyStatement({ actions: ['sqs:SendMessage'], resources: [scheduleFailures.queueArn] }),
          ],
        }),
      },
    });
    new scheduler.Schedule(this, `${o.id}Schedule`, {
      description: o.schedule,
      schedule: scheduler.ScheduleExpression.rate(o.every),
      timeWindow: scheduler.TimeWindow.off(),
      target: {
        bind: () => ({
          arn: fn.functionArn,
          role,
          retryPolicy: { maximumRetryAttempts: 3, maximumEventAgeInSeconds: 3600 },
          deadLetterConfig: { arn: scheduleFailures.queueArn },
        }),
      },
    });
    // Scheduler invokes asynchronously: a run that fails after Lambda's retries is kept, with an alarm.
    const failures = new AsyncFailures(this, `${o.id}AsyncFailures`, {
      fn,
      monitoring: props.monitoring,
      description: `${o.name[0]!.toUpperCase()}${o.name.slice(1)} function`,
    });
    props.monitoring.alarm(this, `${o.id}Errors`, {
      metric: fn.metricErrors({ statistic: 'Sum', period: Duration.days(1) }),
      threshold: 1,
      alarmDescription: `The ${o.name} failed: ${o.failedMeans}. See docs/payments.md#failure-figures`,
    });
    props.monitoring.alarm(this, `${o.id}Undelivered`, {
      metric: queuedMessages(scheduleFailures),
      threshold: 1,
      alarmDescription: `EventBridge Scheduler could not invoke the ${o.name}. See docs/payments.md#failure-figures`,
    });
    return { reconcile, scheduleFailures, failures };
  }
}

/** A metric the reconcile functions publish (namespace and service as every function's). */
const paymentMetric = (metricName: string, period: Duration) =>
  new cloudwatch.Metric({
    namespace: 'CreatorStreaming',
    metricName,
    dimensionsMap: { service: 'creator-streaming' },
    statistic: 'Sum',
    period,
  });
