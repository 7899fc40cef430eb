import { Aws, NestedStack } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as ses from 'aws-cdk-lib/aws-ses';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { failureQueue, workQueue } from './queues.ts';
import type { Construct } from 'constructs';
import { mailFeedbackRow } from '../functions/mail/workers.ts';
import { identityOf, type MailDeployment } from '../shared/mail/access.ts';
import { ApiFunction, type ApiFunctionDefaults, constructIdOf } from './api-function.ts';
import { type Monitoring, queuedMessages } from './monitoring.ts';

/** The SES events that mark an address undeliverable (EventBridge detail types of SES). */
export const MAIL_FEEDBACK_DETAIL_TYPES = ['Email Bounced', 'Email Complaint Received'] as const;

/** The feedback queue's figures (docs/identity.md "E-mail delivery"). */
export const MAIL_FEEDBACK_QUEUE = {
  batchSize: 10,
  /** Six times the worker's timeout (AWS's guidance for SQS event sources). */
  visibilityTimeoutSeconds: 60,
  maxReceiveCount: 5,
} as const;

export interface MailProps extends ApiFunctionDefaults {
  monitoring: Monitoring;
  /** The From address; its domain is the SES identity, verified in the account (deploy setting `mailFrom`). */
  from: string;
}

/**
 * E-mail (nested stack `Mail`; docs/identity.md "E-mail delivery"):
 * - the **configuration set** every message is sent through; its event destination publishes
 *   bounces and complaints to the account's default EventBridge bus (the only bus SES publishes to);
 * - a rule there (this configuration set's events only) puts them on the **feedback queue**, with a
 *   dead-letter queue and its alarm;
 * - the **feedback worker** (functions/mail/record-feedback.ts) marks the addresses undeliverable;
 *   the mailer (shared/mail/mailer.ts) sends nothing to them any more.
 * The sending identity (the domain of `from`) is verified outside the stack (DNS: DKIM records),
 * once per account and region; functions with `mailer` may send only from it, only through this
 * configuration set (`deployment`, shared/mail/access.ts).
 */
export class Mail extends NestedStack {
  readonly configurationSet: ses.CfnConfigurationSet;
  readonly queue: sqs.Queue;
  readonly deadLetters: sqs.Queue;
  readonly worker: ApiFunction;
  readonly deployment: MailDeployment;

  constructor(scope: Construct, id: string, props: MailProps) {
    super(scope, id, { description: 'Mail: SES configuration set, bounce and complaint feedback' });
    this.configurationSet = new ses.CfnConfigurationSet(this, 'ConfigurationSet', {
      sendingOptions: { sendingEnabled: true },
      reputationOptions: { reputationMetricsEnabled: true },
    });
    const configurationSetName = this.configurationSet.ref;
    new ses.CfnConfigurationSetEventDestination(this, 'FeedbackDestination', {
      configurationSetName,
      eventDestination: {
        enabled: true,
        matchingEventTypes: ['BOUNCE', 'COMPLAINT'],
        eventBridgeDestination: {
          eventBusArn: `arn:${Aws.PARTITION}:events:${Aws.REGION}:${Aws.ACCOUNT_ID}:event-bus/default`,
        },
      },
    });
    this.deadLetters = failureQueue(
      this,
      'FeedbackDeadLetters',
      'This queue is the dead-letter queue of the mail feedback queue; an operator redrives it (docs/operations.md "Redrive").',
    );
    this.queue = workQueue(this, 'Feedback', {
      settings: MAIL_FEEDBACK_QUEUE,
      deadLetters: this.deadLetters,
    });
    new events.Rule(this, 'FeedbackRule', {
      description: "SES bounces and complaints of the stack's configuration set to the mail feedback queue",
      eventPattern: {
        source: ['aws.ses'],
        detailType: [...MAIL_FEEDBACK_DETAIL_TYPES],
        detail: { mail: { tags: { 'ses:configuration-set': [configurationSetName] } } },
      },
      targets: [new targets.SqsQueue(this.queue, { deadLetterQueue: this.deadLetters })],
    });
    this.worker = new ApiFunction(this, constructIdOf(mailFeedbackRow.handler), {
      resources: props.resources,
      environment: props.environment,
      logGroup: props.logGroup,
      code: props.code,
      row: mailFeedbackRow,
    });
    this.worker.fn.addEventSource(
      new SqsEventSource(this.queue, {
        batchSize: MAIL_FEEDBACK_QUEUE.batchSize,
        reportBatchItemFailures: true,
      }),
    );
    this.deployment = {
      from: props.from,
      identityArn: `arn:${Aws.PARTITION}:ses:${Aws.REGION}:${Aws.ACCOUNT_ID}:identity/${identityOf(props.from)}`,
      configurationSetName,
      configurationSetArn: `arn:${Aws.PARTITION}:ses:${Aws.REGION}:${Aws.ACCOUNT_ID}:configuration-set/${configurationSetName}`,
    };

    props.monitoring.watchFunctions(this, 'Mail', [this.worker.fn]);
    props.monitoring.alarm(this, 'FeedbackDeadLettersAlarm', {
      metric: queuedMessages(this.deadLetters),
      threshold: 1,
      alarmDescription:
        'SES bounce or complaint events were not applied (the feedback worker failed 5 times, or EventBridge could not deliver them): mail may still go to addresses that bounce. See docs/operations.md#redrive',
    });
  }
}
