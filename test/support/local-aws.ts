import { hostEnv, installLocalAws, localDeployment } from '../../scripts/local/aws.ts';

/**
 * Every test worker runs with the local platform's AWS layer (scripts/local/aws.ts): handlers
 * served by the local server get their function's own environment and IAM policy, and code a
 * test calls directly (outside any invocation) sees the deployment's settings, like an operator.
 */
installLocalAws();
const deployment = localDeployment();
const settings: Record<string, string> = {
  TABLE_NAME: deployment.tableName,
  SIGNING_KEY_ID: deployment.signingKeyId,
  ANALYTICS_STREAM_NAME: deployment.analyticsStreamName,
  PLAYBACK_TOKEN_SECRET: deployment.playbackSecret,
};
for (const [name, value] of Object.entries(settings))
  if (hostEnv(name) === undefined) process.env[name] = value;
