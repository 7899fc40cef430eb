import type { TestProject } from 'vitest/node';
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startLocalPlatform } from '../scripts/local/platform.ts';

const IAM_USAGE_ROOT = resolve(import.meta.dirname, '../.local/iam-usage');

/**
 * Starts one DynamoDB Local for the whole test run, creates the table and seeds the demo catalogue
 * (seed 42 at the real current time). Workers inherit DYNAMODB_ENDPOINT and TABLE_NAME.
 */
export default async function setup(project: TestProject) {
  // Every AWS call a handler makes is recorded (scripts/local/aws.ts) for the least-privilege check,
  // in a folder of this run's own (several runs may share the checkout).
  const usageDir = join(IAM_USAGE_ROOT, `run-${process.pid}`);
  rmSync(usageDir, { recursive: true, force: true });
  process.env.IAM_USAGE_DIR = usageDir;
  const platform = await startLocalPlatform({ seed: 42 });
  project.provide('seededAt', platform.seededAt.toISOString());
  return async () => {
    await platform.stop();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    seededAt: string;
  }
}
