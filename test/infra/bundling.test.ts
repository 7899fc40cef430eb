import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, describe, expect, it } from 'vitest';
import { ApiStack } from '../../infra/stack.ts';
import type { RouteRow } from '../../shared/http/route.ts';
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

const stackWith = (handler: string) => {
  const { app, outdir } = newApp();
  const stack = new ApiStack(app, 'Bundled', {
    stage: 'dev',
    routes: [row(handler)],
    bundle: true,
  });
  return { stack, outdir };
};

describe('real bundling with the local esbuild', () => {
  it(
    'produces a minified ESM bundle with a source map that runs as the Lambda handler',
    async () => {
      const { stack, outdir } = stackWith('../test/infra/fixtures/hello-handler');
      // The route's function lives in its domain's nested stack (the Workers stack bundles the
      // projector, recompute and rebuild, the Events stack the event publisher); the parent's only
      // Lambda is the dev buckets' auto-delete helper.
      const fns = stack.routeStacks.flatMap((nested) =>
        Object.values(Template.fromStack(nested).findResources('AWS::Lambda::Function')),
      ) as any[];
      expect(fns).toHaveLength(1);
      const fn = fns[0];
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
    },
    SYNTH_TIMEOUT,
  );

  it('names the missing handler file when a row has none yet', () => {
    expect(() => stackWith('nowhere/get-nothing')).toThrow(
      /Route GET \/hello: handler file functions\/nowhere\/get-nothing\.ts does not exist/,
    );
    expect(existsSync(join(import.meta.dirname, '../../functions/nowhere'))).toBe(false);
  });
});
