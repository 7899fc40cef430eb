import type { TestProject } from 'vitest/node';
import { startLocalPlatform } from '../scripts/local/platform.ts';

/**
 * Starts one DynamoDB Local for the whole test run, creates the table and seeds the demo catalogue
 * (seed 42 at the real current time). Workers inherit DYNAMODB_ENDPOINT and TABLE_NAME.
 */
export default async function setup(project: TestProject) {
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
