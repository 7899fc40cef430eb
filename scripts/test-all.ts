/**
 * `npm test`'s middle: four jobs side by side, the integration tests (one worker that waits on
 * DynamoDB Local much of its time: the long pole, its output shown as it runs), and beside them
 * the unit tests (a vitest run of their own, one worker: CPU-bound, bundles and synths), the type
 * check and the API document's lint, whose output is printed whole after the integration run.
 * Together they are every vitest test `npm run test:suite` runs, in two processes instead of
 * one worker taking the unit files in turn with the integration files (docs/conventions.md
 * "Test time"). The three quiet jobs run at the lowest CPU priority (`nice -n 19`, inherited by
 * every process they start: vitest's worker, esbuild, synths, Node 22 children): the integration
 * run is a chain of requests, each waiting on the worker, then DynamoDB Local, then the worker
 * again, so every time a unit test held the core it needed, the whole chain waited. At nice 19 the
 * unit tests take the cores only when the chain leaves them idle. Measured on this 2-core machine:
 * the integration run 1,100-1,350 s beside the unit tests at equal priority, 739 s beside them
 * niced (550 s alone), the unit tests 581-620 s and 548 s; this step 12 min 22 s in all.
 * Exits 1 if any of the four failed, naming which. The integration run also writes vitest's JSON
 * report, and when it failed the tests that failed are named again last with their first error
 * lines: a CI log that keeps only its tail (the unit output printed after the integration run)
 * still says what broke.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

const integrationReport = '.local/test-results/integration.json';

const run = (script: string, quiet: boolean, extra: string[] = []) =>
  new Promise<{ script: string; code: number; output: string }>((resolve) => {
    // The quiet jobs yield the CPU to the integration run (see above).
    const [file, ...args] = [
      ...(quiet ? ['nice', '-n', '19'] : []),
      'npm',
      'run',
      '--silent',
      script,
      ...(extra.length > 0 ? ['--', ...extra] : []),
    ];
    const child = spawn(file!, args, {
      stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    });
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => resolve({ script, code: code ?? 1, output }));
  });

const results = await Promise.all([
  run('typecheck', true),
  run('lint:api', true),
  run('test:unit', true),
  run('test:integration', false, [
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${integrationReport}`,
  ]),
]);
const failed = results.filter((r) => r.code !== 0);
for (const r of results.slice(0, 3)) process.stdout.write(`\n> ${r.script}: exit ${r.code}\n${r.output}`);
if (results[3]!.code !== 0) console.error(failuresOf(integrationReport));
if (failed.length > 0) {
  console.error(`\nfailed: ${failed.map((r) => r.script).join(', ')}`);
  process.exit(1);
}

/** The failed tests (and files that failed outside a test) of a vitest JSON report, or why not. */
function failuresOf(path: string): string {
  type Report = {
    testResults: {
      name: string;
      status: string;
      message?: string;
      assertionResults: { fullName: string; status: string; failureMessages: string[] }[];
    }[];
  };
  let report: Report;
  try {
    report = JSON.parse(readFileSync(path, 'utf8')) as Report;
  } catch (error) {
    return `\nintegration: no report at ${path} (${(error as Error).message})`;
  }
  const head = (message: string) => message.split('\n').slice(0, 6).join('\n    ');
  const lines = report.testResults.flatMap((file) => [
    ...(file.status === 'failed' && file.message
      ? [`${relative('.', file.name)}\n    ${head(file.message)}`]
      : []),
    ...file.assertionResults
      .filter((test) => test.status === 'failed')
      .map(
        (test) =>
          `${relative('.', file.name)} > ${test.fullName}\n    ${head(test.failureMessages[0] ?? '')}`,
      ),
  ]);
  return `\nintegration: ${lines.length} failed\n${lines.join('\n')}`;
}
