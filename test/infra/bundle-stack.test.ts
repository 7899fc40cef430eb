import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleDefineOf, LAMBDA_BUNDLE_ALIAS, lambdaEsbuildOptions } from '../../infra/bundling.ts';
import { mappedStack } from '../../shared/observability/stack.ts';
import { apiEvent } from '../support/events.ts';

/**
 * Issue 41: the functions run without `--enable-source-maps` (on Node 22 it reads and indexes the
 * bundle's map at every init), so the one stack the API logs, an unhandled error's, is mapped when
 * it is logged (shared/observability/stack.ts). Checked on an endpoint bundled as the functions
 * are and run in a fresh Node with no flags, as Lambda runs it: the logged frame names the
 * fixture's source file and line, not `index.mjs:1:<column>`.
 */
const dir = mkdtempSync(join(tmpdir(), 'bundle-stack-'));
const file = join(dir, 'index.mjs');
const FIXTURE = resolve(import.meta.dirname, 'fixtures/failing-handler.ts');

beforeAll(async () => {
  await build({
    entryPoints: [FIXTURE],
    outfile: file,
    ...lambdaEsbuildOptions(),
    define: bundleDefineOf({ auth: 'none' }),
    alias: { ...LAMBDA_BUNDLE_ALIAS },
    logLevel: 'error',
  });
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The bundle's answer to one request in a fresh Node, and what it wrote to stderr (Powertools logs errors there). */
const serve = (event: unknown): { status: number; stderr: string } => {
  const run = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      'const { handler } = await import(process.argv[1]); const r = await handler(JSON.parse(process.argv[2]), {}); process.stdout.write(String(r.statusCode));',
      file,
      JSON.stringify(event),
    ],
    // No VITEST (which silences the logger) and no NODE_OPTIONS, as on Lambda.
    { encoding: 'utf8', env: { PATH: process.env.PATH, AWS_REGION: 'us-east-1' } },
  );
  return { status: Number(run.stdout), stderr: run.stderr };
};

describe('logged stacks of a bundled function (issue 41: source maps read lazily)', () => {
  it("names the source file and line of the throw in the 500's log line", () => {
    const { status, stderr } = serve(apiEvent({ route: 'GET /creators/tiers' }));
    expect(status).toBe(500);
    const line = stderr.split('\n').find((l) => l.includes('"Unhandled error"'));
    expect(line, stderr).toBeDefined();
    const stack = JSON.parse(line!).error.stack as string;
    const source = readFileSync(FIXTURE, 'utf8').split('\n');
    const throwLine = source.findIndex((l) => l.includes("throw new Error('boom')")) + 1;
    expect(stack).toContain('Error: boom');
    expect(stack.split('\n')[1]).toMatch(
      new RegExp(`test/infra/fixtures/failing-handler\\.ts:${throwLine}:\\d+`),
    );
    expect(stack).not.toContain('index.mjs');
  });

  it('leaves a stack outside a bundle as it is (no map beside the module)', () => {
    const stack = new Error('here').stack;
    expect(mappedStack(stack)).toBe(stack);
    expect(mappedStack(undefined)).toBeUndefined();
  });
});
