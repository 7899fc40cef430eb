import { CustomResource, Duration, type RemovalPolicy } from 'aws-cdk-lib';
import type * as kms from 'aws-cdk-lib/aws-kms';
import type * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { customResourceFunction, type FunctionCode } from './api-function.ts';
import { signingPublicKeyStatements } from './handlers/access.ts';

export interface SigningPublicKeyProps {
  /** The asymmetric ECC_NIST_P256 key that signs access tokens. */
  signingKey: kms.IKey;
  removalPolicy: RemovalPolicy;
  logRetention: logs.RetentionDays;
  /** How its function is made (infra/api-function.ts FunctionCode). */
  code: FunctionCode;
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
    const { role, fn } = customResourceFunction(this, {
      handler: 'infra/handlers/signing-public-key.ts',
      description: "Reads the access-token signing key's public half at deploy (KMS GetPublicKey)",
      timeout: Duration.minutes(1),
      statements: signingPublicKeyStatements(props.signingKey.keyArn),
      logRetention: props.logRetention,
      removalPolicy: props.removalPolicy,
      code: props.code,
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
