import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiStack } from '../../infra/stack.ts';
import { getDocsAsset } from '../../functions/platform/contracts.ts';
import { type RouteRow, routeKey } from '../../shared/routing/route.ts';
import { SWAGGER_UI_ASSETS } from '../../shared/openapi/reference-page.ts';
import { apiEvent } from '../support/events.ts';
import { bundledCode } from '../../infra/api-function.ts';
import { cleanUp, newApp, SYNTH_TIMEOUT } from './synth.ts';

afterAll(cleanUp);

const row = (handler: string): RouteRow => ({
  method: 'GET',
  path: '/hello',
  handler,
  auth: 'none',
  summary: 'bundling fixture',
  tag: 'Test',
});

const stackWith = (...rows: RouteRow[]) => {
  const { app, outdir } = newApp();
  const stack = new ApiStack(app, 'Bundled', { stage: 'dev', routes: rows, code: bundledCode });
  return { stack, outdir };
};

/** The route functions of the stack (each in its domain's nested stack), by route key. */
const routeFunctions = (stack: ApiStack): Map<string, any> =>
  new Map(
    stack.routeStacks.flatMap((nested) =>
      Object.values(Template.fromStack(nested).findResources('AWS::Lambda::Function')).map(
        (fn: any) => [String(fn.Properties.Description).split(':')[0], fn] as [string, any],
      ),
    ),
  );

/** The folder of a function's bundle in the cloud assembly. */
const bundleDir = (fn: any, outdir: string): string =>
  join(outdir, `asset.${String(fn.Properties.Code.S3Key).replace(/\.zip$/, '')}`);

const hello = row('../test/infra/fixtures/hello-handler');
/**
 * ONE bundled synthesis for both bundles checked below: every synthesis with `code: bundledCode` also
 * bundles the stack's own functions (the Workers stack's projector, recompute and rebuild, the
 * Events stack's publisher...), 25-30 s of esbuild on the 2-core machine, so one per row
 * doubled this file's time for nothing it checks.
 */
let bundled: { stack: ApiStack; outdir: string; fns: Map<string, any> };
beforeAll(() => {
  const { stack, outdir } = stackWith(hello, getDocsAsset);
  bundled = { stack, outdir, fns: routeFunctions(stack) };
}, SYNTH_TIMEOUT);

describe('real bundling with the local esbuild', () => {
  it('produces a minified ESM bundle with a source map that runs as the Lambda handler', async () => {
    const { outdir, fns } = bundled;
    // Each route's function lives in its domain's nested stack (the Workers stack bundles the
    // projector, recompute and rebuild, the Events stack the event publisher); the parent's only
    // Lambda is the dev buckets' auto-delete helper. One function per row, none other.
    expect([...fns.keys()].sort()).toEqual([routeKey(getDocsAsset), routeKey(hello)].sort());
    const fn = fns.get(routeKey(hello));
    expect(fn.Properties.Handler).toBe('index.handler');
    const hash = String(fn.Properties.Code.S3Key).replace(/\.zip$/, '');
    const asset = readdirSync(outdir).find((name) => name === `asset.${hash}`);
    expect(asset).toBeDefined();
    const dir = join(outdir, asset!);
    expect(readdirSync(dir).sort()).toEqual(['index.mjs', 'index.mjs.map']);
    const code = readFileSync(join(dir, 'index.mjs'), 'utf8');
    expect(code.startsWith('import { createRequire as __createRequire }')).toBe(true);
    expect(code.length / code.split('\n').length).toBeGreaterThan(1000); // minified: long lines
    const { handler } = await import(pathToFileURL(join(dir, 'index.mjs')).href);
    const reply = await handler({ name: 'lambda' });
    expect(JSON.parse(reply.body)).toMatchObject({ hello: 'lambda', sdk: 'function' });
  });

  it("ships a row's run-time package files in its bundle: the API reference assets, served with no node_modules around (issue 33)", async () => {
    const { outdir, fns } = bundled;
    const dir = bundleDir(fns.get(routeKey(getDocsAsset)), outdir);
    expect(readdirSync(join(dir, 'node_modules/swagger-ui-dist')).sort()).toEqual([
      'swagger-ui-bundle.js',
      'swagger-ui.css',
    ]);
    expect(existsSync(join(outdir, 'node_modules'))).toBe(false);
    const { handler } = await import(pathToFileURL(join(dir, 'index.mjs')).href);
    const name = 'swagger-ui-bundle.js';
    const res = await handler(
      apiEvent({
        route: 'GET /docs/assets/{name}',
        path: `/docs/assets/${name}`,
        pathParameters: { name },
      }),
    );
    expect(res.statusCode).toBe(200);
    expect(`sha384-${createHash('sha384').update(res.body).digest('base64')}`).toBe(
      SWAGGER_UI_ASSETS[name].integrity,
    );
  });

  it('names the missing handler file when a row has none yet', () => {
    expect(() => stackWith(row('nowhere/get-nothing'))).toThrow(
      /Function GET \/hello: handler file functions\/nowhere\/get-nothing\.ts does not exist/,
    );
    expect(existsSync(join(import.meta.dirname, '../../functions/nowhere'))).toBe(false);
  });
});
