/**
 * `npm test` after the lint: the integration tests (one worker that waits on DynamoDB Local much
 * of its time: the long pole, its output shown as it runs) and beside them, in turn, the unit
 * tests (a vitest run of their own, one worker: CPU-bound, bundles and synths) and then the
 * bundle and cold-import budgets (`bench:check --fast`, ~3.5 min alone), with the type check and
 * the API document's lint beside the unit tests. Their output is printed whole after the
 * integration run. Together they are every vitest test `npm run test:suite` runs, in two
 * processes instead of one worker taking the unit files in turn with the integration files, and
 * the budget check in the integration run's tail, where only its one worker ran before
 * (docs/conventions.md "Test time"). The cold-import budget is on CPU time, each function paired
 * with the floor imported right before it, so the integration run beside it loads both alike.
 * Exits 1 if any failed, naming which.
 */
import { spawn } from 'node:child_process';

interface Result {
  script: string;
  code: number;
  output: string;
}

const run = (script: string, quiet: boolean, args: string[] = []) =>
  new Promise<Result>((resolve) => {
    const child = spawn('npm', ['run', '--silent', script, ...(args.length ? ['--', ...args] : [])], {
      stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    });
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => resolve({ script: [script, ...args].join(' '), code: code ?? 1, output }));
  });

const beside = (async () => {
  const first = await Promise.all([run('typecheck', true), run('lint:api', true), run('test:unit', true)]);
  return [...first, await run('bench:check', true, ['--fast'])];
})();
const results = await Promise.all([run('test:integration', false), beside]);
const quiet = results[1];
for (const r of quiet) process.stdout.write(`\n> ${r.script}: exit ${r.code}\n${r.output}`);
const failed = [results[0], ...quiet].filter((r) => r.code !== 0);
if (failed.length > 0) {
  console.error(`\nfailed: ${failed.map((r) => r.script).join(', ')}`);
  process.exit(1);
}
