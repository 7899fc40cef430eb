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
const file = join(dir, 'failing', 'index.mjs');
const tiers = join(dir, 'tiers', 'index.mjs');
const FIXTURE = resolve(import.meta.dirname, 'fixtures/failing-handler.ts');

beforeAll(async () => {
  await build({
    entryPoints: {
      'failing/index': FIXTURE,
      'tiers/index': resolve(import.meta.dirname, '../../functions/creators/list-tiers.ts'),
    },
    outdir: dir,
    outExtension: { '.js': '.mjs' },
    ...lambdaEsbuildOptions(),
    define: bundleDefineOf({ auth: 'none' }),
    alias: { ...LAMBDA_BUNDLE_ALIAS },
    logLevel: 'error',
  });
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The bundle's answer to one request in a fresh Node, and what it wrote to stderr (the logger writes WARN and ERROR lines there). */
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

/**
 * Issue 41 (Lambda-like init): how many `Console`s a fresh Node builds while it imports the real
 * `creators/list-tiers` bundle and answers one request, and the lines it wrote to stdout.
 * Powertools' Logger and Metrics built one each at import, in every cold start; the request line
 * and EMF record are written straight to the stream now (shared/observability), with the same keys.
 * (Both streams exist at import anyway: the AWS SDK's `import { env } from 'node:process'` makes
 * Node's ESM facade of `process` read every export, `stdout` and `stderr` included.)
 */
const consolesOf = (event: unknown, env: Record<string, string> = {}) => {
  const child = `const { Console } = console;
let built = 0;
console.Console = function (...args) { built++; return new Console(...args); };
const { handler } = await import(process.argv[1]);
const atImport = built;
const r = await handler(JSON.parse(process.argv[2]), {});
process.stdout.write('\\n@@' + JSON.stringify({ status: r.statusCode, atImport, atRequest: built - atImport }));`;
  const run = spawnSync(
    process.execPath,
    ['--input-type=module', '-e', child, tiers, JSON.stringify(event)],
    {
      encoding: 'utf8',
      env: {
        PATH: process.env.PATH,
        AWS_REGION: 'us-east-1',
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
        ...env,
      },
    },
  );
  const at = run.stdout.lastIndexOf('\n@@');
  return {
    ...(JSON.parse(run.stdout.slice(at + 3)) as { status: number; atImport: number; atRequest: number }),
    lines: run.stdout.slice(0, at).split('\n').filter(Boolean),
    stderr: run.stderr,
  };
};

describe('log lines of a bundled function (issue 41: Lambda-like init)', () => {
  it('builds no Console at import or for a request, and writes the request line with its keys', () => {
    const run = consolesOf(apiEvent({ route: 'GET /creators/tiers' }));
    expect(run.status, run.stderr).toBe(200);
    expect([run.atImport, run.atRequest]).toEqual([0, 0]);
    expect(run.lines.map((line) => JSON.parse(line))).toEqual([
      {
        level: 'INFO',
        message: 'request',
        timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        service: 'creator-streaming',
        requestId: expect.any(String),
        route: 'GET /creators/tiers',
        status: 200,
        latencyMs: expect.any(Number),
      },
    ]);
  });

  it('writes the EMF record of the request on Lambda, on stdout, with the namespace and service dimension', () => {
    const run = consolesOf(apiEvent({ route: 'GET /creators/tiers' }), { AWS_LAMBDA_FUNCTION_NAME: 'tiers' });
    expect(JSON.parse(run.lines[1]!)).toEqual({
      _aws: {
        Timestamp: expect.any(Number),
        CloudWatchMetrics: [
          {
            Namespace: 'CreatorStreaming',
            Dimensions: [['service']],
            Metrics: [{ Name: 'requests', Unit: 'Count' }],
          },
        ],
      },
      service: 'creator-streaming',
      requests: 1,
    });
  });
});
