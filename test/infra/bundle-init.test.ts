import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { routes } from '../../functions/routes.ts';
import { bundleDefineOf, nodejsBundling } from '../../infra/bundling.ts';
import { bundleLambdas } from '../../scripts/lambda-bundle.ts';
import { settingsOf } from '../../shared/platform/access.ts';
import { functionKey } from '../../shared/routing/function-row.ts';

/**
 * What a route's bundle leaves out because its requests never use it (issue 41, cold starts: V8
 * compiles every byte of a bundle at init, and these ran or were compiled at every cold start):
 * - routes without request budgets (`rateLimit`; 22 of the route table's rows have one) have no
 *   rate limiter: `process.env.LAMBDA_BUNDLE_RATE_LIMIT` is `"none"` in their bundles, which
 *   folds the limiter out of the middleware chain with shared/http/rate-limit.ts, the counter
 *   repository and the UpdateItem command the counter writes with;
 * - no bundle carries the stack's environment model (shared/platform/access.ts and each domain's
 *   access module, ~11 KB) for its init-time settings check: the names it checks are the row's,
 *   computed when it was built (`process.env.LAMBDA_BUNDLE_SETTINGS`), and the check still fails
 *   a function that misses one.
 */
const out = mkdtempSync(join(tmpdir(), 'bundle-init-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

const RATE_LIMIT_KEY = 'process.env.LAMBDA_BUNDLE_RATE_LIMIT';
const RATE_LIMIT_NONE = { [RATE_LIMIT_KEY]: '"none"' };
const entry = (handler: string) => resolve(import.meta.dirname, '../../functions', `${handler}.ts`);
const limited = routes.find((row) => row.rateLimit !== undefined)!;
const unlimited = routes.find((row) => row.handler === 'creators/list-creators')!;

describe('what a route bundle leaves out', () => {
  it('defines the limiter away only for routes without budgets and for workers', () => {
    expect(unlimited.rateLimit).toBeUndefined();
    expect(bundleDefineOf(unlimited)).toMatchObject(RATE_LIMIT_NONE);
    expect(nodejsBundling(unlimited).define).toMatchObject(RATE_LIMIT_NONE);
    expect(bundleDefineOf({ trigger: '$queue/fixture' })).toMatchObject(RATE_LIMIT_NONE);
    expect(bundleDefineOf(limited)).not.toHaveProperty([RATE_LIMIT_KEY]);
    expect(nodejsBundling(limited).define).not.toHaveProperty([RATE_LIMIT_KEY]);
    expect(bundleDefineOf(undefined)).not.toHaveProperty([RATE_LIMIT_KEY]);
  });

  it('leaves the limiter and its UpdateItem out of a bundle without budgets only', async () => {
    const files = await bundleLambdas(
      new Map([
        ['limited', entry(limited.handler)],
        ['unlimited', entry(unlimited.handler)],
      ]),
      out,
    );
    const inputsOf = (name: string) =>
      JSON.parse(readFileSync(join(dirname(files.get(name)!), 'inputs.json'), 'utf8')) as string[];
    const limiterFiles = (name: string) =>
      inputsOf(name).filter(
        (input) =>
          input === 'shared/http/rate-limit.ts' ||
          input === 'shared/http/rate-limit-repository.ts' ||
          input.endsWith('/commands/UpdateItemCommand.js'),
      );
    expect(limiterFiles('unlimited')).toEqual([]);
    // The check is live: a bundle with budgets carries them.
    expect(limiterFiles('limited')).toEqual(
      expect.arrayContaining(['shared/http/rate-limit.ts', 'shared/http/rate-limit-repository.ts']),
    );
  }, 60_000);

  it('refuses at init a contract with budgets in a bundle built without the limiter', async () => {
    vi.stubEnv('LAMBDA_BUNDLE_RATE_LIMIT', 'none');
    vi.resetModules();
    try {
      const { endpoint } = await import('../../shared/http/handler.ts');
      const contractOf = (row: (typeof routes)[number]) => ({
        ...row,
        operationId: 'fixture',
        description: 'fixture',
        responses: () => ({ 204: { description: 'fixture' } }),
      });
      expect(() => endpoint(contractOf(limited), () => ({ kind: 'no-content' }))).toThrow(
        /bundled without the rate limiter/,
      );
      expect(() => endpoint(contractOf(unlimited), () => ({ kind: 'no-content' }))).not.toThrow();
    } finally {
      vi.unstubAllEnvs();
      vi.resetModules();
    }
  });

  it("checks at init the settings its row needs, from names fixed at build, without the stack's environment model", async () => {
    expect(bundleDefineOf(unlimited)['process.env.LAMBDA_BUNDLE_SETTINGS']).toBe(
      JSON.stringify(settingsOf(unlimited).join(',')),
    );
    expect(bundleDefineOf({ auth: 'none' })).not.toHaveProperty(['process.env.LAMBDA_BUNDLE_SETTINGS']);
    const files = await bundleLambdas(new Map([['settings', entry(unlimited.handler)]]), out);
    const inputs = JSON.parse(
      readFileSync(join(dirname(files.get('settings')!), 'inputs.json'), 'utf8'),
    ) as string[];
    const domainAccess = inputs.filter((input) => /^shared\/(?!platform\/).*access\.ts$/.test(input));
    expect(domainAccess).toEqual([]);
    // The check is live in the bundle: a function without one of its settings fails at init.
    const names = settingsOf(unlimited);
    const init = (env: Record<string, string>) =>
      execFileSync(
        process.execPath,
        ['--input-type=module', '-e', 'await import(process.argv[1])', files.get('settings')!],
        {
          env: {
            PATH: process.env.PATH,
            AWS_REGION: 'us-east-1',
            AWS_ACCESS_KEY_ID: 'x',
            AWS_SECRET_ACCESS_KEY: 'x',
            ...env,
          },
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
    const all = Object.fromEntries(
      names.map((name) => [name, name === 'ROUTE_KEY' ? functionKey(unlimited) : 'x']),
    );
    expect(() => init(all)).not.toThrow();
    const { TABLE_NAME: _, ...withoutTable } = all;
    expect(() => init(withoutTable)).toThrow(/missing settings its row needs: TABLE_NAME/);
  }, 60_000);
});
