import { Aws, type RemovalPolicy, RemovalPolicy as Removal, Validations } from 'aws-cdk-lib';
import * as ivs from 'aws-cdk-lib/aws-ivs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';

export interface LiveVideoProps {
  removalPolicy: RemovalPolicy;
}

/**
 * What the stack holds of Amazon IVS (docs/live.md "Channels on IVS"): channels are created at
 * run time by the API (`POST /studio/channel`), never one CloudFormation resource per creator; the
 * stack holds what every channel shares: the recordings bucket and the recording configuration
 * that writes each broadcast to it (HLS, a thumbnail every 60 s, all renditions).
 */
export class LiveVideo extends Construct {
  readonly recordings: s3.Bucket;
  readonly recordingConfiguration: ivs.CfnRecordingConfiguration;
  /** `arn:<partition>:ivs:<region>:<account>`: the account's IVS resources in this region. */
  readonly arnPrefix = `arn:${Aws.PARTITION}:ivs:${Aws.REGION}:${Aws.ACCOUNT_ID}`;

  constructor(scope: Construct, id: string, props: LiveVideoProps) {
    super(scope, id);
    this.recordings = new s3.Bucket(this, 'Recordings', {
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      removalPolicy: props.removalPolicy,
      autoDeleteObjects: props.removalPolicy === Removal.DESTROY,
    });
    Validations.of(this.recordings).acknowledge({
      id: 'AwsSolutions-S1',
      reason:
        'Recordings are written only by IVS and read through the platform; CloudTrail data events cover access auditing.',
    });
    this.recordingConfiguration = new ivs.CfnRecordingConfiguration(this, 'RecordingConfiguration', {
      destinationConfiguration: { s3: { bucketName: this.recordings.bucketName } },
      // LATEST keeps media/latest_thumbnail/thumb.jpg, rewritten while live: the live thumbnail_url.
      thumbnailConfiguration: {
        recordingMode: 'INTERVAL',
        targetIntervalSeconds: 60,
        storage: ['SEQUENTIAL', 'LATEST'],
      },
      renditionConfiguration: { renditionSelection: 'ALL' },
      // A stream that drops and reconnects within 60 s continues the same recording.
      recordingReconnectWindowSeconds: 60,
    });
    // Prod keeps it with the channels that name it (RETAIN); dev deletes it once the run-time
    // cleanup (infra/runtime-cleanup.ts) has removed those channels.
    this.recordingConfiguration.applyRemovalPolicy(props.removalPolicy);
  }
}
