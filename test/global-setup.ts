import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startLocalPlatform } from '../scripts/local/platform.ts';
import { startIvsChatControl } from './support/ivschat-control.ts';
import { comparePrivileges, readUsage } from './support/least-privilege.ts';

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
 * (seed 42 at the real current time). Workers inherit DYNAMODB_ENDPOINT and TABLE_NAME.
 * Teardown: least privilege both ways for every function of the stack (routes, workers, schedules,
 * custom resources: test/support/least-privilege.ts); unused grants fail only a complete run.
 */
export default async function setup(project: TestProject) {
  // Every AWS call a handler makes is recorded (scripts/local/aws.ts), in a folder of this run's
  // own (several runs may share the checkout).
  const usageDir = join(IAM_USAGE_ROOT, `run-${process.pid}`);
  rmSync(usageDir, { recursive: true, force: true });
  process.env.IAM_USAGE_DIR = usageDir;
  const platform = await startLocalPlatform({ seed: 42 });
  // IVS Chat's control plane: the platform's stand-in when it has one, else the tests' minimal one.
  const chat = process.env.AWS_ENDPOINT_URL_IVSCHAT ? undefined : await startIvsChatControl();
  if (chat) process.env.AWS_ENDPOINT_URL_IVSCHAT = chat.endpoint;
  project.provide('seededAt', platform.seededAt.toISOString());
  // Imported only now, as scripts/start.ts does: the contracts reach modules that create the
  // shared DynamoDB client, which reads DYNAMODB_ENDPOINT when first loaded.
  const { stackFunctions } = await import('./support/stack-functions.ts');
  const { localDeployment } = await import('../scripts/local/aws.ts');
  return async () => {
    await platform.stop();
    await chat?.stop();
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
