import type { Statement } from '../../shared/platform/access.ts';

/**
 * What the custom resources' functions may do (beyond logs), one derivation for the stack
 * (infra/signing-public-key.ts, infra/playback-keys.ts) and the least-privilege report
 * (test/support/stack-functions.ts), as shared/platform/access.ts is for the API's functions;
 * and what Lambda's poller needs of a table stream reader's role.
 */

/**
 * What Lambda's poller reads a DynamoDB stream with (the execution role's permissions, as Lambda's
 * documentation lists them): the stream's shards and records on the stream's ARN, and
 * dynamodb:ListStreams on `*`, the only resource IAM authorizes it on (the Service Authorization
 * Reference: no resource types), so a grant of it on the stream ARN does nothing
 * (test/infra/policies.test.ts).
 */
export const streamPollerStatements = (streamArn: string): Statement[] => [
  {
    actions: ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator'],
    resources: [streamArn],
  },
  { actions: ['dynamodb:ListStreams'], resources: ['*'] },
];

/** `Custom::SigningPublicKey`: reads the signing key's public half at deploy. */
export const signingPublicKeyStatements = (signingKeyArn: string): Statement[] => [
  { actions: ['kms:GetPublicKey'], resources: [signingKeyArn] },
];

/**
 * `Custom::IvsPlaybackKeyPair` and `Custom::MediaSigningKeyPair` (one function): imports and
 * deletes IVS playback key pairs, writes each generation's private half into its secret, and
 * reads a media generation's secret back on Update (its public key, answered again).
 */
export const keyPairStatements = (keys: {
  ivsArnPrefix: string;
  playbackSecretArns: readonly string[];
  mediaSecretArns: readonly string[];
}): Statement[] => [
  {
    actions: ['ivs:DeletePlaybackKeyPair', 'ivs:ImportPlaybackKeyPair'],
    resources: [`${keys.ivsArnPrefix}:playback-key/*`],
  },
  ...keys.mediaSecretArns.map((arn) => ({
    actions: ['secretsmanager:GetSecretValue', 'secretsmanager:PutSecretValue'],
    resources: [arn],
  })),
  ...keys.playbackSecretArns.map((arn) => ({ actions: ['secretsmanager:PutSecretValue'], resources: [arn] })),
];

/**
 * `Custom::RuntimeCleanup` (dev): on stack deletion, stops the streams and deletes the stream keys
 * and channels, and deletes the IVS Chat rooms, the API made at run time. ListChannels and
 * ListRooms have no resource-level permissions (IAM's `*`); each other action on the resource
 * types the Service Authorization Reference lists for it (DeleteRoom: `room`).
 */
export const runtimeCleanupStatements = (ivsArnPrefix: string, chatArnPrefix: string): Statement[] => [
  { actions: ['ivs:ListChannels', 'ivschat:ListRooms'], resources: ['*'] },
  {
    actions: ['ivs:DeleteChannel', 'ivs:ListStreamKeys', 'ivs:StopStream'],
    resources: [`${ivsArnPrefix}:channel/*`, `${ivsArnPrefix}:stream-key/*`],
  },
  { actions: ['ivs:DeleteStreamKey'], resources: [`${ivsArnPrefix}:stream-key/*`] },
  { actions: ['ivschat:DeleteRoom'], resources: [`${chatArnPrefix}:room/*`] },
];
