/**
 * `npm test`'s middle: the type check and the API document's lint run beside the test suite (they
 * take ~1 min of one core; the suite, one worker, waits on DynamoDB Local much of its time), their
 * output printed whole after it. Exits 1 if any of the three failed, naming which.
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

const results = await Promise.all([run('typecheck', true), run('lint:api', true), run('test:suite', false)]);
const failed = results.filter((r) => r.code !== 0);
for (const r of results.slice(0, 2)) process.stdout.write(`\n> ${r.script}: exit ${r.code}\n${r.output}`);
if (failed.length > 0) {
  console.error(`\nfailed: ${failed.map((r) => r.script).join(', ')}`);
  process.exit(1);
}
