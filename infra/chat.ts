import { Aws, Duration, NestedStack, RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as ivschat from 'aws-cdk-lib/aws-ivschat';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { chatReviewRow } from '../functions/workers.ts';
import type { ChatDeployment } from '../shared/chat/access.ts';
import { ApiFunction, type ApiFunctionDefaults, constructIdOf } from './api-function.ts';
import type { Monitoring } from './monitoring.ts';

export interface ChatProps extends ApiFunctionDefaults {
  monitoring: Monitoring;
  /** The logging configuration every room names (`ChatLogs`, in the parent). */
  loggingConfigurationArn: string;
}

/** Days chat logs are kept (moderation evidence, then gone). */
export const CHAT_LOG_DAYS = 30;

/**
 * Where every room's messages are logged (in the main stack, whose bucket auto-deletion provider
 * it shares): a private bucket, objects kept CHAT_LOG_DAYS days, and the IVS Chat logging
 * configuration writing to it.
 */
export class ChatLogs extends Construct {
  /** `arn:<partition>:ivschat:<region>:<account>`: the account's rooms (made at run time). */
  readonly arnPrefix = `arn:${Aws.PARTITION}:ivschat:${Aws.REGION}:${Aws.ACCOUNT_ID}`;
  readonly bucket: s3.Bucket;
  readonly loggingConfiguration: ivschat.CfnLoggingConfiguration;

  constructor(scope: Construct, id: string, props: { removalPolicy: RemovalPolicy }) {
    super(scope, id);
    this.bucket = new s3.Bucket(this, 'Bucket', {
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      lifecycleRules: [{ expiration: Duration.days(CHAT_LOG_DAYS) }],
      removalPolicy: props.removalPolicy,
      autoDeleteObjects: props.removalPolicy === RemovalPolicy.DESTROY,
    });
    Validations.of(this.bucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason:
        'Chat logs are written only by IVS Chat log delivery and read by operators for moderation; CloudTrail data events cover access auditing.',
    });
    this.loggingConfiguration = new ivschat.CfnLoggingConfiguration(this, 'LoggingConfiguration', {
      destinationConfiguration: { s3: { bucketName: this.bucket.bucketName } },
    });
  }
}

/**
 * Live chat (nested stack `Chat`; docs/chat.md): the **message review handler**
 * (functions/chat/review-message.ts) every IVS Chat room the API makes at run time names, which
 * IVS Chat may invoke for the account's rooms only (a resource policy with the room ARN pattern
 * and the account); alarms on its errors and throttles (`watchFunctions`) and on its p99 duration
 * nearing IVS's 200 ms (past it IVS applies the room's fallback), and on DisconnectUser failures
 * for deleted or signed-out accounts (`chat_disconnect_failures`). Rooms themselves are not stack
 * resources (one per channel, shared/chat/rooms.ts).
 */
export class Chat extends NestedStack {
  readonly review: ApiFunction;
  readonly deployment: ChatDeployment;

  constructor(scope: Construct, id: string, props: ChatProps) {
    super(scope, id, { description: 'Live chat: the IVS Chat message review handler and its alarms' });
    const arnPrefix = `arn:${Aws.PARTITION}:ivschat:${Aws.REGION}:${Aws.ACCOUNT_ID}`;
    this.review = new ApiFunction(this, constructIdOf(chatReviewRow.handler), {
      resources: props.resources,
      environment: props.environment,
      logGroup: props.logGroup,
      code: props.code,
      row: chatReviewRow,
    });
    new lambda.CfnPermission(this, 'InvokedByIvsChat', {
      action: 'lambda:InvokeFunction',
      functionName: this.review.fn.functionArn,
      principal: 'ivschat.amazonaws.com',
      sourceAccount: Aws.ACCOUNT_ID,
      sourceArn: `${arnPrefix}:room/*`,
    });
    this.deployment = {
      arnPrefix,
      reviewHandlerArn: this.review.fn.functionArn,
      loggingConfigurationArn: props.loggingConfigurationArn,
    };

    props.monitoring.watchFunctions(this, 'ChatReview', [this.review.fn]);
    props.monitoring.alarm(this, 'ReviewDurationAlarm', {
      metric: this.review.fn.metricDuration({ period: Duration.minutes(5), statistic: 'p99' }),
      threshold: 150,
      evaluationPeriods: 3,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      alarmDescription:
        'The chat review handler p99 is 150 ms or more for 15 minutes: near IVS Chat 200 ms, past which messages get the room fallback (ALLOW) unreviewed. See docs/chat.md#review',
    });
    // Counted by DELETE /me, DELETE /me/sessions and the purge (shared/chat/disconnect-account.ts),
    // which go on without it: a deleted or signed-out account may still be chatting.
    props.monitoring.alarm(this, 'DisconnectFailuresAlarm', {
      metric: new cloudwatch.Metric({
        namespace: 'CreatorStreaming',
        metricName: 'chat_disconnect_failures',
        dimensionsMap: { service: 'creator-streaming' },
        statistic: 'Sum',
        period: Duration.minutes(5),
      }),
      threshold: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      alarmDescription:
        "IVS Chat DisconnectUser failed (after the client's retries) for a deleted or signed-out-everywhere account: its open chat connection may keep chatting as it until its session ends (an hour at most). The log line 'chat disconnect failed' names the room and error. See docs/chat.md#ending-an-accounts-connections",
    });
  }
}
