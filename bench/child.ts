/**
 * Runs a part of the bench in a child process (`node --import tsx <script> <args> --json <file>`)
 * and answers the JSON it wrote. Used by bench/projection.ts and bench/cost.ts: the shared
 * DynamoDB client binds one endpoint per process, so each part gets a process of its own. The
 * parent's DynamoDB Local and table (bench/server-bench.ts) are not the child's: the SDK's
 * AWS_ENDPOINT_URL_DYNAMODB and AWS_ENDPOINT_URL_DYNAMODB_STREAMS, DYNAMODB_PORT and TABLE_NAME are left out of its environment (a part that is to use the parent's
 * table is told so by its arguments). The child's stderr goes to ours.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const ROOT = resolve(import.meta.dirname, '..');

export const runChild = async <T>(script: string, args: readonly string[] = []): Promise<T> => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-child-'));
  try {
    const out = join(dir, 'result.json');
    const env = { ...process.env };
    delete env.AWS_ENDPOINT_URL_DYNAMODB;
    delete env.AWS_ENDPOINT_URL_DYNAMODB_STREAMS;
    delete env.DYNAMODB_PORT;
    delete env.TABLE_NAME;
    await new Promise<void>((done, fail) => {
      const child = execFile(
        process.execPath,
        ['--import', 'tsx', script, ...args, '--json', out],
        { cwd: ROOT, env, maxBuffer: 64 * 1024 * 1024 },
        (error) => (error ? fail(error) : done()),
      );
      child.stderr?.pipe(process.stderr);
    });
    return JSON.parse(readFileSync(out, 'utf8')) as T;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

/**
 * The child's side, for a part run as a script (`moduleFile` is its `import.meta.filename`): when
 * that file is the process's entry, measures, then writes the result as JSON to `--json <file>`
 * (what `runChild` reads) or prints its markdown, and exits. Does nothing when the file is imported.
 */
export const runAsScript = async <T>(
  moduleFile: string,
  measure: () => Promise<T> | T,
  markdown: (result: T) => string[],
): Promise<void> => {
  if (!process.argv[1] || resolve(process.argv[1]) !== resolve(moduleFile)) return;
  const { values } = parseArgs({ options: { json: { type: 'string' } } });
  const result = await measure();
  if (values.json) writeFileSync(values.json, JSON.stringify(result, null, 2));
  else console.log(markdown(result).join('\n'));
  process.exit(0);
};
