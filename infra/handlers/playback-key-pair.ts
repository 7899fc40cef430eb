import { createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { DeletePlaybackKeyPairCommand, ImportPlaybackKeyPairCommand, IvsClient } from '@aws-sdk/client-ivs';
import {
  GetSecretValueCommand,
  PutSecretValueCommand,
  SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import { type CloudFormationEvent, respond } from './cloudformation.ts';

/**
 * The key pair resources of infra/playback-keys.ts, one function for both types.
 *
 * `Custom::MediaSigningKeyPair`: one generation of the media CDN's signing key. Create generates
 * an RSA-2048 key pair, writes its private half into the generation's secret and answers the
 * public half (PEM, SPKI: public by nature) as the `PublicKey` attribute, which becomes a
 * CloudFront public key of the media CDN's trusted key group. Update answers the same public key
 * again (derived from the secret: a generation's key is made once); Delete changes nothing (the
 * secret goes with its own resource, the public key with its own).
 *
 * `Custom::IvsPlaybackKeyPair`: one generation of the IVS playback key. Create generates a P-384 key pair here, imports its public half into IVS
 * (ImportPlaybackKeyPair) and writes its private half into the generation's Secrets Manager
 * secret; the private key never leaves this function and the secret (no template, no output, no
 * log line, no response Data). Delete removes the key pair from IVS (the secret goes with its own
 * resource). Update changes nothing: a generation's key is made once; rotating means a new
 * generation (docs/live.md "Rotating the playback key").
 */

export interface KeyPairProperties {
  /** The key pair's name in IVS: `<stack>-<generation>`. */
  Name: string;
  /** The generation's secret, which receives the private key (PEM, PKCS#8). */
  SecretArn: string;
}

export type CustomResourceEvent = CloudFormationEvent<KeyPairProperties>;

export interface Clients {
  ivs: Pick<IvsClient, 'send'>;
  secrets: Pick<SecretsManagerClient, 'send'>;
}

const pemOf = (key: KeyObject, type: 'pkcs8' | 'spki') =>
  key.export({ type, format: 'pem' } as never).toString();

/** Writes a private key into its generation's secret. */
const storePrivateKey = (clients: Clients, secretArn: string, privateKey: KeyObject) =>
  clients.secrets.send(
    new PutSecretValueCommand({ SecretId: secretArn, SecretString: pemOf(privateKey, 'pkcs8') }),
  );

/** Makes a media signing key: the private half into the secret; answers the public half (PEM). */
export const createMediaKey = async (clients: Clients, props: KeyPairProperties): Promise<string> => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  await storePrivateKey(clients, props.SecretArn, privateKey);
  return pemOf(publicKey, 'spki');
};

/** The public half of the key a generation's secret holds. */
const storedPublicKey = async (clients: Clients, props: KeyPairProperties): Promise<string> => {
  const { SecretString } = await clients.secrets.send(
    new GetSecretValueCommand({ SecretId: props.SecretArn }),
  );
  if (!SecretString) throw new Error('The media key secret has no value');
  return pemOf(createPublicKey(SecretString), 'spki');
};

/** Imports a fresh key pair and stores its private half; returns the key pair's ARN. */
export const createKeyPair = async (clients: Clients, props: KeyPairProperties): Promise<string> => {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-384' });
  const { keyPair } = await clients.ivs.send(
    new ImportPlaybackKeyPairCommand({
      name: props.Name,
      publicKeyMaterial: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    }),
  );
  const arn = keyPair?.arn;
  if (!arn) throw new Error('ImportPlaybackKeyPair answered no key pair ARN');
  try {
    await storePrivateKey(clients, props.SecretArn, privateKey);
  } catch (error) {
    // A key IVS accepts but nobody can sign with would only hold a slot: take it back.
    await clients.ivs.send(new DeletePlaybackKeyPairCommand({ arn }));
    throw error;
  }
  return arn;
};

/** Removes a generation's key pair from IVS; one already gone counts as removed. */
export const deleteKeyPair = async (clients: Clients, arn: string): Promise<void> => {
  try {
    await clients.ivs.send(new DeletePlaybackKeyPairCommand({ arn }));
  } catch (error) {
    if ((error as Error).name !== 'ResourceNotFoundException') throw error;
  }
};

/** What a media key resource does for `event`: its physical id, and the public key once created. */
export const applyMedia = async (
  clients: Clients,
  event: CustomResourceEvent,
): Promise<{ physicalId: string; data?: Record<string, string> }> => {
  const physicalId = event.PhysicalResourceId ?? event.ResourceProperties.Name;
  switch (event.RequestType) {
    case 'Create':
      return { physicalId, data: { PublicKey: await createMediaKey(clients, event.ResourceProperties) } };
    case 'Update':
      // The generation's key is made once; its attribute is answered again from the secret.
      return { physicalId, data: { PublicKey: await storedPublicKey(clients, event.ResourceProperties) } };
    case 'Delete':
      return { physicalId };
  }
};

/** What the resource does for `event`: its physical id (the key pair's ARN once created). */
export const apply = async (clients: Clients, event: CustomResourceEvent): Promise<string> => {
  const physical = event.PhysicalResourceId;
  switch (event.RequestType) {
    case 'Create':
      return createKeyPair(clients, event.ResourceProperties);
    case 'Update':
      return physical ?? createKeyPair(clients, event.ResourceProperties);
    case 'Delete':
      // A failed Create leaves a non-ARN id: nothing to remove.
      if (physical?.startsWith('arn:')) await deleteKeyPair(clients, physical);
      return physical ?? event.RequestId;
  }
};

export { respond };

let clients: Clients | undefined;

export const handler = async (event: CustomResourceEvent): Promise<void> => {
  clients ??= { ivs: new IvsClient({}), secrets: new SecretsManagerClient({}) };
  try {
    await respond(
      event,
      event.ResourceType === 'Custom::MediaSigningKeyPair'
        ? await applyMedia(clients, event)
        : { physicalId: await apply(clients, event) },
    );
  } catch (error) {
    const { name, message } = error as Error;
    console.error(
      JSON.stringify({
        level: 'ERROR',
        message: 'playback key pair',
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
