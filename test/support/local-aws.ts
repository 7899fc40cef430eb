import { installLocalAws, useDeploymentSettings } from '../../scripts/local/aws.ts';

/**
 * Every test worker runs with the local platform's AWS layer (scripts/local/aws.ts): handlers
 * served by the local server get their function's own environment and IAM policy, and code a
 * test calls directly (outside any invocation) sees the deployment's settings, like an operator.
 */
installLocalAws();
useDeploymentSettings();
