import { Duration, NestedStack, RemovalPolicy, Validations } from 'aws-cdk-lib';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { failureQueue, workQueue } from './queues.ts';
import { Construct } from 'constructs';
import { accountJobsRow } from '../functions/accounts/workers.ts';
import type { AccountsDeployment } from '../shared/accounts/access.ts';
import { ApiFunction, type ApiFunctionDefaults, constructIdOf } from './api-function.ts';
import { type Monitoring, queuedMessages } from './monitoring.ts';

/** The account jobs queue's figures (docs/accounts.md, docs/operations.md "Redrive"). */
export const ACCOUNT_JOBS_QUEUE = {
  batchSize: 1,
  /** Six times the worker's timeout (functions/accounts/workers.ts; AWS's guidance for SQS event sources). */
  visibilityTimeoutSeconds: 1800,
  maxReceiveCount: 3,
} as const;

/** Export documents are kept this long (their URLs last an hour; ask again for a fresh one). */
export const EXPORT_RETENTION_DAYS = 1;

/**
 * The exports bucket (in the main stack, whose bucket auto-deletion provider it shares, as every
 * bucket of the stack does): private, S3-managed encryption, TLS only, objects expire after
 * EXPORT_RETENTION_DAYS; a dev stack's delete empties it first. The account jobs worker writes
 * documents under `exports/` (random keys), `GET /me/export` presigns GET URLs for them.
 */
export class ExportsBucket extends Construct {
  readonly bucket: s3.Bucket;

  constructor(scope: Construct, id: string, props: { removalPolicy: RemovalPolicy }) {
    super(scope, id);
    this.bucket = new s3.Bucket(this, 'Bucket', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      lifecycleRules: [{ expiration: Duration.days(EXPORT_RETENTION_DAYS) }],
      removalPolicy: props.removalPolicy,
      autoDeleteObjects: props.removalPolicy === RemovalPolicy.DESTROY,
    });
    Validations.of(this.bucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason:
        'Export documents live a day and are read through presigned URLs the API hands to their owner only; access logs would keep who downloaded personal data longer than the data itself (docs/accounts.md).',
    });
  }
}

export interface AccountsProps extends ApiFunctionDefaults {
  monitoring: Monitoring;
  removalPolicy: RemovalPolicy;
  /** The exports bucket (`ExportsBucket`, in the main stack). */
  exports: s3.IBucket;
}

/**
 * Accounts (nested stack `Accounts`; docs/accounts.md), beside the exports bucket it is handed:
 * - the **pseudonym key** (Secrets Manager, generated): the HMAC key analytics hashes account ids
 *   with (shared/analytics/pseudonym.ts);
 * - the **account jobs queue** with its dead-letter queue and alarm, drained by the **account jobs
 *   worker** (functions/accounts/run-account-jobs.ts): exports built, deleted accounts purged.
 */
export class Accounts extends NestedStack {
  readonly bucket: s3.IBucket;
  readonly pseudonymKey: secretsmanager.Secret;
  readonly queue: sqs.Queue;
  readonly deadLetters: sqs.Queue;
  readonly worker: ApiFunction;
  readonly deployment: AccountsDeployment;

  constructor(scope: Construct, id: string, props: AccountsProps) {
    super(scope, id, {
      description: 'Accounts: pseudonym key, account jobs queue and worker',
    });
    this.bucket = props.exports;
    this.pseudonymKey = new secretsmanager.Secret(this, 'PseudonymKey', {
      description: 'The HMAC key analytics replaces account ids with (docs/accounts.md "Analytics")',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
      removalPolicy: props.removalPolicy,
    });
    Validations.of(this.pseudonymKey).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'Rotating the pseudonym key would split every account into two pseudonyms in the analytics store (unique viewers counted twice); it is never rotated (docs/accounts.md).',
    });
    this.deadLetters = failureQueue(
      this,
      'JobDeadLetters',
      'This queue is the dead-letter queue of the account jobs queue; an operator redrives it (docs/operations.md "Redrive").',
    );
    this.queue = workQueue(this, 'Jobs', { settings: ACCOUNT_JOBS_QUEUE, deadLetters: this.deadLetters });
    this.deployment = {
      exportsBucketName: this.bucket.bucketName,
      exportsBucketArn: this.bucket.bucketArn,
      pseudonymSecretArn: this.pseudonymKey.secretArn,
      jobsQueueUrl: this.queue.queueUrl,
      jobsQueueArn: this.queue.queueArn,
    };
    this.worker = new ApiFunction(this, constructIdOf(accountJobsRow.handler), {
      resources: { ...props.resources, accounts: this.deployment },
      environment: props.environment,
      logGroup: props.logGroup,
      code: props.code,
      row: accountJobsRow,
    });
    this.worker.fn.addEventSource(
      new SqsEventSource(this.queue, {
        batchSize: ACCOUNT_JOBS_QUEUE.batchSize,
        reportBatchItemFailures: true,
      }),
    );

    props.monitoring.watchFunctions(this, 'AccountJobs', [this.worker.fn]);
    props.monitoring.alarm(this, 'JobDeadLettersAlarm', {
      metric: queuedMessages(this.deadLetters),
      threshold: 1,
      alarmDescription:
        'An account job failed 3 times: an export was not built, or a deleted account was not purged (a GDPR deadline). See docs/operations.md#redrive',
    });
  }
}
