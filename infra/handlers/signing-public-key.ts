import { GetPublicKeyCommand, KMSClient } from '@aws-sdk/client-kms';
import { jwkOf } from '../../shared/identity/signing-jwk.ts';
import { type CloudFormationEvent, type Outcome, respond } from './cloudformation.ts';

/**
 * `Custom::SigningPublicKey` (infra/signing-public-key.ts): the access-token signing key's public
 * half, read ONCE at deploy so that no function reads it at run time. Create and Update call KMS
 * GetPublicKey on `KeyId` and answer the `Jwk` attribute: the public JWK as compact JSON text
 * (shared/identity/signing-jwk.ts `jwkOf`: EC P-256, kid = the key id, ES256, sig), which the
 * stack puts in every verifying function's `SIGNING_PUBLIC_JWK`. Delete changes nothing. The
 * physical id is the key id: replacing the key (a new `KeyId`) replaces the resource, and the
 * verifying functions get the new key's JWK in the same deployment.
 *
 * Not CDK's `AwsCustomResource`: its handler turns every Uint8Array of a response into UTF-8
 * text, which mangles the DER public key (bytes that are not UTF-8 become U+FFFD); this function
 * converts the DER itself. The public key is not a secret: the template, the function
 * environments and `/.well-known/jwks.json` all carry it.
 */

export interface SigningPublicKeyProperties {
  /** The signing key's id (`kms.Key.keyId`): what GetPublicKey reads and the tokens' `kid`. */
  KeyId: string;
}

export type CustomResourceEvent = CloudFormationEvent<SigningPublicKeyProperties>;

/** The key's public JWK (compact JSON), from KMS GetPublicKey. */
export const publicJwkOf = async (kms: Pick<KMSClient, 'send'>, keyId: string): Promise<string> => {
  const { PublicKey } = await kms.send(new GetPublicKeyCommand({ KeyId: keyId }));
  if (!PublicKey) throw new Error(`GetPublicKey answered no public key for ${keyId}`);
  return JSON.stringify(jwkOf(PublicKey, keyId));
};

/** What the resource does for `event`: its physical id (the key id), and the JWK on Create and Update. */
export const apply = async (kms: Pick<KMSClient, 'send'>, event: CustomResourceEvent): Promise<Outcome> => {
  const keyId = event.ResourceProperties.KeyId;
  switch (event.RequestType) {
    case 'Create':
    case 'Update':
      return { physicalId: keyId, data: { Jwk: await publicJwkOf(kms, keyId) } };
    case 'Delete':
      // Nothing was made: the key is the stack's own resource.
      return { physicalId: event.PhysicalResourceId ?? keyId };
  }
};

export { respond };

let kms: KMSClient | undefined;

export const handler = async (event: CustomResourceEvent): Promise<void> => {
  kms ??= new KMSClient({});
  try {
    await respond(event, await apply(kms, event));
  } catch (error) {
    const { name, message } = error as Error;
    console.error(
      JSON.stringify({
        level: 'ERROR',
        message: 'signing public key',
        requestType: event.RequestType,
        error: { name, message },
      }),
    );
    await respond(event, {
      physicalId: event.PhysicalResourceId ?? `failed-${event.RequestId}`,
      error: `${name}: ${message}`,
    });
  }
};
