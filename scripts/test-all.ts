/**
 * `npm test`'s middle: four jobs side by side, the integration tests (one worker that waits on
 * DynamoDB Local much of its time: the long pole, its output shown as it runs), and beside them
 * the unit tests (a vitest run of their own, one worker: CPU-bound, bundles and synths), the type
 * check and the API document's lint, whose output is printed whole after the integration run.
 * Together they are every vitest test `npm run test:suite` runs, in two processes instead of
 * one worker taking the unit files in turn with the integration files (docs/conventions.md
 * "Test time"). Exits 1 if any of the four failed, naming which.
 */
import { spawn } from 'node:child_process';

const run = (script: string, quiet: boolean) =>
  new Promise<{ script: string; code: number; output: string }>((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], {
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
  run('test:integration', false),
]);
const failed = results.filter((r) => r.code !== 0);
for (const r of results.slice(0, 3)) process.stdout.write(`\n> ${r.script}: exit ${r.code}\n${r.output}`);
if (failed.length > 0) {
  console.error(`\nfailed: ${failed.map((r) => r.script).join(', ')}`);
  process.exit(1);
}
