import { installLocalAws, useDeploymentSettings } from '../../scripts/local/aws.ts';
import { chosenStart, shiftClock } from './shifted-clock.ts';

/**
 * Every test worker runs with the local platform's AWS layer (scripts/local/aws.ts): handlers
 * served by the local server get their function's own environment and IAM policy, and code a
 * test calls directly (outside any invocation) sees the deployment's settings, like an operator.
 */
installLocalAws();
useDeploymentSettings();
// The clock of a run started at a chosen instant (TEST_NOW, test/support/shifted-clock.ts): the
// integration platform's offset, or for a unit file its own start.
const start = chosenStart();
if (start) shiftClock(Number(process.env.TEST_CLOCK_OFFSET_MS ?? start.getTime() - Date.now()));
