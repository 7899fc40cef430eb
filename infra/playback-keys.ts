import { CustomResource, Duration, type RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import type * as logs from 'aws-cdk-lib/aws-logs';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { customResourceFunction, grantStatements, type FunctionCode } from './api-function.ts';
import { keyPairStatements } from './handlers/access.ts';

export interface PlaybackKeysProps {
  /** Generations kept imported, oldest first (the `playbackKeys` setting); the last one signs. */
  generations: readonly string[];
  /** `arn:<partition>:ivs:<region>:<account>` (infra/live-video.ts). */
  ivsArnPrefix: string;
  removalPolicy: RemovalPolicy;
  logRetention: logs.RetentionDays;
  /** How its function is made (infra/api-function.ts FunctionCode). */
  code: FunctionCode;
}

/**
 * The IVS playback key pairs that sign playback tokens (docs/live.md "Playback tokens"). Per
 * generation: a Secrets Manager secret and a `Custom::IvsPlaybackKeyPair` resource whose function
 * (infra/handlers/playback-key-pair.ts) generates the key pair, imports the public half into IVS
 * and writes the private half into the secret, so no key material is in the template, an output,
 * a function's environment or a log. `current` is the newest generation's secret: the signing
 * functions get its ARN and read it at init. Rotation is two deployments (docs/live.md).
 */
export class PlaybackKeys extends Construct {
  readonly current: secretsmanager.ISecret;
  /**
   * The media CDN's signing keys (docs/live.md "Recorded media: signed URLs"), per generation
   * like the IVS keys: a secret and a `Custom::MediaSigningKeyPair` whose public half becomes a
   * CloudFront public key. `keyGroup` holds every generation's (the media CDN trusts it);
   * `currentMedia` is the newest: its secret and its public key's id (`Key-Pair-Id`).
   */
  readonly keyGroup: cloudfront.KeyGroup;
  readonly currentMedia: { secret: secretsmanager.ISecret; keyPairId: string };

  constructor(scope: Construct, id: string, props: PlaybackKeysProps) {
    super(scope, id);
    if (props.generations.length === 0) throw new Error('At least one playback key generation is needed');
    const { role, fn } = customResourceFunction(this, {
      handler: 'infra/handlers/playback-key-pair.ts',
      description: 'Imports IVS playback key pairs; their private halves go to Secrets Manager',
      timeout: Duration.minutes(1),
      logRetention: props.logRetention,
      removalPolicy: props.removalPolicy,
      code: props.code,
    });
    Validations.of(role).acknowledge({
      id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:ivs:<AWS::Region>:<AWS::AccountId>:playback-key/*]`,
      reason:
        "A playback key pair ARN is made by IVS when the key is imported, so the grant names the account's playback keys in this region, for only import and delete.",
    });

    const stack = Stack.of(this).stackName;
    let current: secretsmanager.Secret | undefined;
    const publicKeys: cloudfront.PublicKey[] = [];
    let currentMedia: { secret: secretsmanager.ISecret; keyPairId: string } | undefined;
    const mediaSecretArns: string[] = [];
    const playbackSecretArns: string[] = [];
    for (const generation of props.generations) {
      const mediaSecret = new secretsmanager.Secret(this, `MediaSecret-${generation}`, {
        description: `Private key of media CDN signing key generation ${generation} (written by its key pair resource)`,
        removalPolicy: props.removalPolicy,
      });
      Validations.of(mediaSecret).acknowledge({
        id: 'AwsSolutions-SMG4',
        reason:
          'Rotated by adding a generation (a new secret and CloudFront public key in the trusted key group) and later removing the old one (docs/live.md), as the IVS playback key.',
      });
      mediaSecretArns.push(mediaSecret.secretArn);
      const mediaKey = new CustomResource(this, `MediaKeyPair-${generation}`, {
        serviceToken: fn.functionArn,
        resourceType: 'Custom::MediaSigningKeyPair',
        properties: { Name: `${stack}-media-${generation}`, SecretArn: mediaSecret.secretArn },
      });
      mediaKey.node.addDependency(role);
      const publicKey = new cloudfront.PublicKey(this, `MediaPublicKey-${generation}`, {
        encodedKey: mediaKey.getAttString('PublicKey'),
        comment: `Media CDN signing key, generation ${generation}`,
      });
      publicKeys.push(publicKey);
      currentMedia = { secret: mediaSecret, keyPairId: publicKey.publicKeyId };

      const secret = new secretsmanager.Secret(this, `Secret-${generation}`, {
        description: `Private key of IVS playback key generation ${generation} (written by its key pair resource)`,
        removalPolicy: props.removalPolicy,
      });
      Validations.of(secret).acknowledge({
        id: 'AwsSolutions-SMG4',
        reason:
          'The key is rotated by adding a generation (a new secret and key pair) and later removing the old one, two deployments apart (docs/live.md "Rotating the playback key"): a rotation Lambda cannot keep the public half in IVS in step.',
      });
      playbackSecretArns.push(secret.secretArn);
      const keyPair = new CustomResource(this, `KeyPair-${generation}`, {
        serviceToken: fn.functionArn,
        resourceType: 'Custom::IvsPlaybackKeyPair',
        properties: { Name: `${stack}-${generation}`, SecretArn: secret.secretArn },
      });
      keyPair.node.addDependency(role);
      current = secret;
    }
    // Its grants: infra/handlers/access.ts (also what the least-privilege report lists).
    grantStatements(
      role,
      keyPairStatements({ ivsArnPrefix: props.ivsArnPrefix, playbackSecretArns, mediaSecretArns }),
    );
    this.current = current!;
    this.currentMedia = currentMedia!;
    this.keyGroup = new cloudfront.KeyGroup(this, 'MediaKeyGroup', {
      items: publicKeys,
      comment: 'Keys whose signatures the media CDN accepts (every kept generation)',
    });
  }
}
