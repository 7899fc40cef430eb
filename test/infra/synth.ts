import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { RouteRow } from '../../shared/http/route.ts';
import { ApiStack, type ApiStackProps } from '../../infra/stack.ts';

const outdirs: string[] = [];

/** A fresh App whose cloud assembly goes to a temp dir that `cleanUp()` removes. */
export const newApp = (): { app: App; outdir: string } => {
  const outdir = mkdtempSync(join(tmpdir(), 'cdk-test-'));
  outdirs.push(outdir);
  return { app: new App({ outdir }), outdir };
};

/** Synthesizes the stack without bundling (placeholder code); the routes default to the real table. */
export const synthStack = (
  routes: readonly RouteRow[],
  overrides: Partial<ApiStackProps> = {},
): { template: Template; stack: ApiStack } => {
  const { app } = newApp();
  const stack = new ApiStack(app, 'Test', {
    stage: 'dev',
    routes,
    bundle: false,
    googleClientId: 'test-client.apps.googleusercontent.com',
    ...overrides,
  });
  return { template: Template.fromStack(stack), stack };
};

export const cleanUp = (): void => {
  for (const dir of outdirs.splice(0)) rmSync(dir, { recursive: true, force: true });
};

/** `count` distinct synthetic rows cycling through the access profiles the spec's routes use. */
export const syntheticRoutes = (count: number): RouteRow[] =>
  Array.from({ length: count }, (_, i) => ({
    method: (['GET', 'POST', 'PATCH', 'DELETE'] as const)[i % 4]!,
    path: `/synthetic/r${i}/{id}`,
    handler: `synthetic/handle-r${i}`,
    auth: (['none', 'optional', 'required'] as const)[i % 3]!,
    table: (['read', 'write', 'none'] as const)[i % 3]!,
    needs: i % 7 === 0 ? (['token-signer'] as const) : undefined,
    throttle: i % 5 === 0 ? { rate: 5, burst: 10 } : undefined,
    summary: `synthetic route ${i}`,
    tag: 'Synthetic',
  }));
