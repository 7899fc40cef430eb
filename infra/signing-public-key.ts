import { join } from 'node:path';
import { CustomResource, Duration, type RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { bundledFunction, InlinePolicyRole, PROJECT_ROOT } from './api-function.ts';
import { signingPublicKeyStatements } from './handlers/access.ts';

export interface SigningPublicKeyProps {
  /** The asymmetric ECC_NIST_P256 key that signs access tokens. */
  signingKey: kms.IKey;
  removalPolicy: RemovalPolicy;
  logRetention: logs.RetentionDays;
  /** false: placeholder code instead of the esbuild bundle (assertion tests). */
  bundle: boolean;
}

/**
 * The access-token signing key's public JWK, computed ONCE at deploy (docs/identity.md
 * "Verifying tokens"): a `Custom::SigningPublicKey` resource whose function
 * (infra/handlers/signing-public-key.ts) calls KMS GetPublicKey and answers the JWK as compact
 * JSON text. `jwk` (its `Jwk` attribute) goes into every verifying function's environment
 * (`SIGNING_PUBLIC_JWK`, shared/platform/access.ts), so none of them bundles the KMS client or
 * calls KMS, and none is granted kms:GetPublicKey. The public key never changes for the key's
 * life and is not a secret; replacing the key (a new key id) re-runs the resource.
 *
 * CDK's `AwsCustomResource` cannot do this: its handler decodes every Uint8Array of an SDK
 * response as UTF-8 text, which mangles the DER public key.
 */
export class SigningPublicKey extends Construct {
  /** The public JWK (compact JSON text): a deploy-time token. */
  readonly jwk: string;

  constructor(scope: Construct, id: string, props: SigningPublicKeyProps) {
    super(scope, id);
    const role = new InlinePolicyRole(this, 'Role');
    const logGroup = new logs.LogGroup(this, 'Logs', {
      retention: props.logRetention,
      removalPolicy: props.removalPolicy,
    });
    const fn = bundledFunction(
      this,
      {
        runtime: lambda.Runtime.NODEJS_22_X,
        architecture: lambda.Architecture.ARM_64,
        memorySize: 256,
        timeout: Duration.minutes(1),
        role,
        logGroup,
        description: "Reads the access-token signing key's public half at deploy (KMS GetPublicKey)",
      },
      {
        entry: join(PROJECT_ROOT, 'infra/handlers/signing-public-key.ts'),
        bundle: props.bundle,
        placeholder: 'exports.handler = async () => {};',
      },
    );
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
        resources: [logGroup.logGroupArn],
      }),
    );
    for (const statement of signingPublicKeyStatements(props.signingKey.keyArn)) {
      role.addToPrincipalPolicy(
        new iam.PolicyStatement({ actions: [...statement.actions], resources: [...statement.resources] }),
      );
    }
    Validations.of(fn).acknowledge({
      id: 'AwsSolutions-L1',
      reason: 'nodejs22.x is the runtime the project targets and tests, as for every function of the stack.',
    });

    const resource = new CustomResource(this, 'Resource', {
      serviceToken: fn.functionArn,
      resourceType: 'Custom::SigningPublicKey',
      properties: { KeyId: props.signingKey.keyId },
    });
    resource.node.addDependency(role);
    this.jwk = resource.getAttString('Jwk');
  }
}
