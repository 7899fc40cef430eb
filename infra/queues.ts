import { Duration, Validations } from 'aws-cdk-lib';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';

/**
 * The stack's SQS queues, one shape each: every queue encrypted (SQS-managed keys) and TLS only.
 */

/**
 * A queue that only keeps failures (a dead-letter queue, an on-failure destination): 14 days
 * (SQS's maximum), with the reason it has no dead-letter queue of its own (cdk-nag's SQS3).
 */
export const failureQueue = (scope: Construct, id: string, reason: string): sqs.Queue => {
  const queue = new sqs.Queue(scope, id, {
    encryption: sqs.QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    retentionPeriod: Duration.days(14),
  });
  Validations.of(queue).acknowledge({ id: 'AwsSolutions-SQS3', reason });
  return queue;
};

/** How a work queue's consumer is set: its visibility timeout and receives before dead letters. */
export interface WorkQueueSettings {
  visibilityTimeoutSeconds: number;
  maxReceiveCount: number;
}

/**
 * A queue of work with its dead-letter queue: a message received `maxReceiveCount` times goes to
 * `deadLetters`. Kept `retentionDays` (default 14, SQS's maximum).
 */
export const workQueue = (
  scope: Construct,
  id: string,
  o: { settings: WorkQueueSettings; deadLetters: sqs.IQueue; retentionDays?: number },
): sqs.Queue =>
  new sqs.Queue(scope, id, {
    encryption: sqs.QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    visibilityTimeout: Duration.seconds(o.settings.visibilityTimeoutSeconds),
    retentionPeriod: Duration.days(o.retentionDays ?? 14),
    deadLetterQueue: { queue: o.deadLetters, maxReceiveCount: o.settings.maxReceiveCount },
  });
