import { CustomResource, Duration, type RemovalPolicy, Validations } from 'aws-cdk-lib';
import type * as ivs from 'aws-cdk-lib/aws-ivs';
import type * as ivschat from 'aws-cdk-lib/aws-ivschat';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { customResourceFunction, type FunctionCode } from './api-function.ts';
import { runtimeCleanupStatements } from './handlers/access.ts';

export interface RuntimeCleanupProps {
  /** The recording configuration every run-time channel names (infra/live-video.ts). */
  recordingConfiguration: ivs.CfnRecordingConfiguration;
  /** `arn:<partition>:ivs:<region>:<account>`. */
  ivsArnPrefix: string;
  /** The logging configuration every run-time chat room names (infra/chat.ts `ChatLogs`). */
  chatLoggingConfiguration: ivschat.CfnLoggingConfiguration;
  /** `arn:<partition>:ivschat:<region>:<account>`. */
  chatArnPrefix: string;
  stage: string;
  removalPolicy: RemovalPolicy;
  logRetention: logs.RetentionDays;
  code: FunctionCode;
}

/**
 * What lets the stack be deleted once creators have channels (docs/operations.md "Tearing
 * down"): a `Custom::RuntimeCleanup` resource whose function (infra/handlers/runtime-cleanup.ts)
 * removes, on Delete, every IVS channel and stream key and every IVS Chat room the API made at run
 * time. It DependsOn the recording configuration and the chat logging configuration, so
 * CloudFormation deletes it BEFORE them: IVS refuses to delete a recording configuration while a
 * channel names it, and a logging configuration rooms still name is not left to IVS Chat's
 * undocumented behaviour. Provider webhook endpoints join the same resource as a cleaner of their
 * own (and grants here) when they arrive.
 */
export class RuntimeCleanup extends Construct {
  readonly resource: CustomResource;
  readonly fn: lambda.Function;

  constructor(scope: Construct, id: string, props: RuntimeCleanupProps) {
    super(scope, id);
    const { role, logGroup, fn } = customResourceFunction(this, {
      handler: 'infra/handlers/runtime-cleanup.ts',
      description:
        'On stack deletion: removes the IVS channels, stream keys and IVS Chat rooms the API made at run time',
      // Lambda's maximum: at IVS's 5 operations a second, about a thousand channels.
      timeout: Duration.minutes(15),
      statements: runtimeCleanupStatements(props.ivsArnPrefix, props.chatArnPrefix),
      logRetention: props.logRetention,
      removalPolicy: props.removalPolicy,
      code: props.code,
    });
    this.fn = fn;
    for (const resource of [
      'ivs:<AWS::Region>:<AWS::AccountId>:channel',
      'ivs:<AWS::Region>:<AWS::AccountId>:stream-key',
      'ivschat:<AWS::Region>:<AWS::AccountId>:room',
    ])
      Validations.of(role).acknowledge({
        id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:${resource}/*]`,
        reason:
          'The channels, stream keys and chat rooms to remove were made at run time by the API: their ARNs are not known to the stack.',
      });
    Validations.of(role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: 'ivs:ListChannels and ivschat:ListRooms have no resource-level permissions.',
    });

    this.resource = new CustomResource(this, 'Resource', {
      serviceToken: this.fn.functionArn,
      resourceType: 'Custom::RuntimeCleanup',
      properties: {
        RecordingConfigurationArn: props.recordingConfiguration.attrArn,
        ChatLoggingConfigurationArn: props.chatLoggingConfiguration.attrArn,
        Stage: props.stage,
      },
    });
    // Deleted before the recording and chat logging configurations (and its own role and function).
    this.resource.node.addDependency(
      props.recordingConfiguration,
      props.chatLoggingConfiguration,
      role,
      logGroup,
    );
  }
}
