import { IvsClient } from '@aws-sdk/client-ivs';
import { KMSClient } from '@aws-sdk/client-kms';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { describe, expect, it } from 'vitest';
import { recomputeRow } from '../../functions/workers.ts';
import { keyPairStatements, signingPublicKeyStatements } from '../../infra/handlers/access.ts';
import * as keyPair from '../../infra/handlers/playback-key-pair.ts';
import * as signingPublicKey from '../../infra/handlers/signing-public-key.ts';
import {
  type FunctionContext,
  functionContext,
  localDeployment,
  runAsFunction,
} from '../../scripts/local/aws.ts';
import { awsClient } from '../../shared/aws/local-hook.ts';
import { db } from '../../shared/db/client.ts';
import { DeleteCommand, GetCommand, PutCommand } from '../../shared/db/document.ts';
import { tableName } from '../../shared/db/table.ts';
import { dayOf } from '../../shared/projection/counters.ts';
import { trendBucketKey } from '../../shared/projection/trend-bucket-repository.ts';
import { CUSTOM_RESOURCE_KEYS } from '../support/stack-functions.ts';

/**
 * The functions no request or table change invokes, run here as themselves (their statements,
 * under the local IAM guard, their requests recorded for the least-privilege report): the hourly
 * recompute, and the custom resources' functions as CloudFormation would invoke them at deploy,
 * against the local stand-ins (IVS, KMS GetPublicKey, Secrets Manager).
 */
const d = localDeployment();
const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
const asCustomResource = (key: string, policy: FunctionContext['policy']): FunctionContext => ({
  routeKey: key,
  env: { AWS_REGION: 'local' },
  policy,
});
const event = <P>(
  RequestType: 'Create' | 'Update' | 'Delete',
  ResourceType: string,
  props: P,
  physical?: string,
) => ({
  RequestType,
  ResourceType,
  ResponseURL: 'http://127.0.0.1:9/unused',
  StackId: 'stack',
  RequestId: `req-${RequestType}`,
  LogicalResourceId: 'Resource',
  ...(physical ? { PhysicalResourceId: physical } : {}),
  ResourceProperties: props,
});

describe('functions run as themselves', () => {
  it('the hourly recompute (as the schedule invokes it), with a trend bucket 8 days old to take off', async () => {
    // A bucket of a creator that does not exist: the recompute's transaction (bucket deleted,
    // count taken off) is refused by its condition, and the bucket zeroed; nothing any other
    // test reads changes.
    const key = trendBucketKey(
      'subscribers',
      dayOf(new Date(Date.now() - 8 * 86_400_000)),
      `cr_iam_${Date.now()}`,
    );
    await db.send(new PutCommand({ TableName: tableName(), Item: { ...key, n: 1 } }));
    const { handler } = await import('../../functions/projector/recompute-windows.ts');
    await runAsFunction(functionContext(recomputeRow), () => handler());
    const zeroed = await db.send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }));
    expect(zeroed.Item?.n).toBe(0);
    await db.send(new DeleteCommand({ TableName: tableName(), Key: key }));
  });

  it("Custom::SigningPublicKey reads the signing key's public JWK with kms:GetPublicKey only", async () => {
    const kms = awsClient(new KMSClient({ region: 'local', credentials }), 'kms');
    const context = asCustomResource(
      CUSTOM_RESOURCE_KEYS.signingPublicKey,
      signingPublicKeyStatements(d.signingKeyArn),
    );
    const outcome = await runAsFunction(context, () =>
      signingPublicKey.apply(kms, event('Create', 'Custom::SigningPublicKey', { KeyId: d.signingKeyId })),
    );
    expect(JSON.parse(outcome.data?.Jwk ?? '{}')).toEqual(JSON.parse(d.signingPublicJwk));
    // Another key is refused, as IAM would refuse it.
    const other = asCustomResource(
      'PROBE signing-public-key',
      signingPublicKeyStatements(`${d.signingKeyArn}0`),
    );
    await expect(
      runAsFunction(other, () =>
        signingPublicKey.apply(kms, event('Create', 'Custom::SigningPublicKey', { KeyId: d.signingKeyId })),
      ),
    ).rejects.toMatchObject({ name: 'AccessDeniedException' });
  });

  it('the key pair resources: an IVS playback key imported and deleted, a media key made and read back', async () => {
    const clients = {
      ivs: awsClient(
        new IvsClient({ endpoint: process.env.IVS_ENDPOINT, region: 'us-east-1', credentials }),
        'ivs',
      ),
      secrets: awsClient(new SecretsManagerClient({ region: 'local', credentials }), 'secretsmanager'),
    };
    const context = asCustomResource(
      CUSTOM_RESOURCE_KEYS.keyPair,
      keyPairStatements({
        ivsArnPrefix: d.ivsArnPrefix,
        playbackSecretArns: [d.playbackKeySecretArn],
        mediaSecretArns: [d.mediaKeySecretArn],
      }),
    );
    const playback = { Name: `test-${Date.now()}`, SecretArn: d.playbackKeySecretArn };
    const arn = await runAsFunction(context, () =>
      keyPair.apply(clients, event('Create', 'Custom::IvsPlaybackKeyPair', playback)),
    );
    expect(arn).toMatch(/^arn:aws:ivs:us-east-1:000000000000:playback-key\//);
    await runAsFunction(context, () =>
      keyPair.apply(clients, event('Delete', 'Custom::IvsPlaybackKeyPair', playback, arn)),
    );
    const media = { Name: `media-${Date.now()}`, SecretArn: d.mediaKeySecretArn };
    const created = await runAsFunction(context, () =>
      keyPair.applyMedia(clients, event('Create', 'Custom::MediaSigningKeyPair', media)),
    );
    const updated = await runAsFunction(context, () =>
      keyPair.applyMedia(clients, event('Update', 'Custom::MediaSigningKeyPair', media, media.Name)),
    );
    expect(updated.data?.PublicKey).toBe(created.data?.PublicKey);
  });
});
