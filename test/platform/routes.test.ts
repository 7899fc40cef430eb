import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import type * as z from 'zod/mini';
import { routes } from '../../functions/routes.ts';
import type { LambdaHandler } from '../../shared/http/handler.ts';
import { routeKey } from '../../shared/routing/route.ts';
import { dynamoActionsOf } from '../../shared/platform/access.ts';

const functionsDir = resolve(import.meta.dirname, '../../functions');

describe('the route table', () => {
  it('has one row per method and path', () => {
    const keys = routes.map(routeKey);
    expect(keys.filter((key, i) => keys.indexOf(key) !== i)).toEqual([]);
  });

  it('names handler files that exist, kebab-case, verb-noun', () => {
    for (const row of routes) {
      expect(existsSync(resolve(functionsDir, `${row.handler}.ts`)), row.handler).toBe(true);
      expect(row.handler, row.handler).toMatch(/^[a-z]+\/[a-z]+(-[a-z0-9]+)+$/);
    }
  });

  it('gives every path parameter a schema in its contract, and nothing more; each handler serves its own contract', async () => {
    for (const row of routes) {
      const { handler } = (await import(resolve(functionsDir, `${row.handler}.ts`))) as {
        handler: LambdaHandler;
      };
      expect(typeof handler, row.handler).toBe('function');
      const params = [...row.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      expect(handler.contract, row.handler).toBe(row);
      const schema = row.request?.path as z.ZodMiniObject | undefined;
      const declared = schema ? Object.keys(schema.shape).sort() : [];
      expect(declared, routeKey(row)).toEqual(params);
    }
  });

  it('grants UpdateItem to every rate-limited row (the budget is counted in the table)', () => {
    const limited = routes.filter((r) => r.rateLimit);
    expect(limited.length).toBeGreaterThan(0);
    for (const row of limited) expect(dynamoActionsOf(row), routeKey(row)).toContain('dynamodb:UpdateItem');
  });

  it('sizes the functions that hash passwords for scrypt (memory, and the CPU that comes with it)', () => {
    const hashing = routes.filter((r) => ['identity/create-account', 'identity/log-in'].includes(r.handler));
    expect(hashing).toHaveLength(2);
    for (const row of hashing) expect(row.memory?.mb, routeKey(row)).toBeGreaterThanOrEqual(1024);
  });

  it('caps every rate-limited row at API Gateway too (a flood from many addresses stops before Lambda)', () => {
    const limited = routes.filter((r) => r.rateLimit);
    expect(limited.map(routeKey)).toEqual(
      expect.arrayContaining([
        'POST /onboarding/account/create',
        'POST /auth/login',
        'GET /onboarding/account/check-email',
        'GET /onboarding/account/check-handle',
        'POST /v3/reactions',
      ]),
    );
    for (const row of limited) {
      expect(row.throttle, routeKey(row)).toBeDefined();
      expect(row.throttle!.burst, routeKey(row)).toBeGreaterThanOrEqual(row.throttle!.rate);
    }
  });

  it('gives every row a summary and a tag for the API reference', () => {
    for (const row of routes) {
      expect(row.summary.length, routeKey(row)).toBeGreaterThan(5);
      expect(row.tag.length, routeKey(row)).toBeGreaterThan(0);
    }
  });

  it('is data: the contracts load schemas and reference data, never storage code or an AWS SDK client', async () => {
    const { metafile } = await build({
      entryPoints: [resolve(import.meta.dirname, '../../functions/routes.ts')],
      bundle: true,
      write: false,
      metafile: true,
      platform: 'node',
      format: 'esm',
      logLevel: 'error',
    });
    const loaded = Object.keys(metafile.inputs);
    expect(loaded.some((file) => file.includes('/contracts.ts'))).toBe(true);
    expect(
      loaded.filter((file) =>
        /@aws-sdk|shared\/db\/|repository\.ts$|functions\/[a-z]+\/(?![a-z-]*contracts\.ts$)[a-z-]+\.ts$/.test(
          file,
        ),
      ),
    ).toEqual([]);
  });
});
