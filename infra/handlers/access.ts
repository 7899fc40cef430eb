import type { Statement } from '../../shared/platform/access.ts';

/**
 * What the custom resources' functions may do (beyond logs), one derivation for the stack
 * (infra/signing-public-key.ts, infra/playback-keys.ts) and the least-privilege report
 * (test/support/stack-functions.ts), as shared/platform/access.ts is for the API's functions.
 */

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
