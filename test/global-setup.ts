import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startLocalPlatform } from '../scripts/local/platform.ts';
import { comparePrivileges, readUsage } from './support/least-privilege.ts';
import { chosenStart, shiftClock } from './support/shifted-clock.ts';

const ROOT = resolve(import.meta.dirname, '..');
const IAM_USAGE_ROOT = join(ROOT, '.local/iam-usage');

/** Did this run execute every integration test file, all passing? Only then is "unused" meaningful. */
const completeAndGreen = (project: TestProject): boolean => {
  const files = (
    project.vitest as unknown as {
      state: { getFiles(): Array<{ filepath: string; result?: { state?: string } }> };
    }
  ).state.getFiles();
  const ran = new Map(files.map((f) => [relative(ROOT, f.filepath), f.result?.state]));
  const all = readdirSync(join(ROOT, 'test'), { recursive: true })
    .map(String)
    .filter((name) => name.endsWith('.int.test.ts'))
    .map((name) => join('test', name));
  return all.every((file) => ran.get(file) === 'pass');
};

/**
 * Starts one DynamoDB Local for the whole test run, creates the table and seeds the demo catalogue
 * (seed 42 at the real current time, or at TEST_NOW: test/support/shifted-clock.ts). Workers inherit the SDK's endpoint settings for DynamoDB
 * Local (AWS_ENDPOINT_URL_DYNAMODB, AWS_ENDPOINT_URL_DYNAMODB_STREAMS), the local region and
 * dummy credentials (AWS_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY) and TABLE_NAME, all set
 * by the platform (scripts/local/platform.ts).
 * Teardown: least privilege both ways for every function of the stack (routes, workers, schedules,
 * custom resources: test/support/least-privilege.ts); unused grants fail only a complete run.
 */
export default async function setup(project: TestProject) {
  // Every AWS call a handler makes is recorded (scripts/local/aws.ts), in a folder of this run's
  // own (several runs may share the checkout).
  const usageDir = join(IAM_USAGE_ROOT, `run-${process.pid}`);
  rmSync(usageDir, { recursive: true, force: true });
  process.env.IAM_USAGE_DIR = usageDir;
  // A run at a chosen instant: this process's clock (the platform's) and, through the variable the
  // workers inherit, theirs start there.
  const start = chosenStart();
  if (start) {
    const offset = start.getTime() - Date.now();
    process.env.TEST_CLOCK_OFFSET_MS = String(offset);
    shiftClock(offset);
    console.log(`\nTEST_NOW: the run's clock starts at ${start.toISOString()} (offset ${offset} ms)\n`);
  }
  const platform = await startLocalPlatform({ seed: 42 });
  project.provide('seededAt', platform.seededAt.toISOString());
  // Imported only now, as scripts/start.ts does: the contracts reach modules that read the
  // platform's settings when first loaded.
  const { stackFunctions } = await import('./support/stack-functions.ts');
  const { localDeployment } = await import('../scripts/local/aws.ts');
  return async () => {
    await platform.stop();
    const report = await comparePrivileges(stackFunctions(localDeployment()), readUsage(usageDir));
    mkdirSync(usageDir, { recursive: true });
    writeFileSync(join(usageDir, 'report.json'), `${JSON.stringify(report, null, 2)}\n`);
    // Every function but the routes, named in the run's output: what was compared, what could not be run.
    console.log(
      `\nLeast privilege (${join(usageDir, 'report.json')}), besides ${report.functions.filter((line) => line.startsWith('route ')).length} routes:\n  ${report.functions.filter((line) => !line.startsWith('route ')).join('\n  ')}\n`,
    );
    const problems = [
      ...report.beyond.map((line) => `called beyond its grant: ${line}`),
      ...(completeAndGreen(project) ? report.unused.map((line) => `granted but never used: ${line}`) : []),
    ];
    if (problems.length > 0) {
      // A teardown error does not fail a vitest run; the exit code does.
      console.error(
        `\nLeast privilege FAILED (every function's statements vs. what the integration run called, as IAM evaluates them; ${join(usageDir, 'report.json')}):\n  ${problems.join('\n  ')}\n`,
      );
      process.exitCode = 1;
    }
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    seededAt: string;
  }
}
