import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, type CfnResource, NestedStack, type Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { RouteRow } from '../../shared/routing/route.ts';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import type { FunctionCode } from '../../infra/api-function.ts';
import { ApiStack, type ApiStackProps } from '../../infra/stack.ts';

const outdirs: string[] = [];

/**
 * Functions without esbuild, for assertion tests: a tiny inline handler (a 501 for a row's
 * function, an empty one for a custom resource's), the rest of the function as the stack makes it.
 */
export const placeholderCode: FunctionCode = (scope, common, { row }) =>
  new lambda.Function(scope, 'Function', {
    ...common,
    handler: 'index.handler',
    code: lambda.Code.fromInline(
      row ? 'exports.handler = async () => ({ statusCode: 501 });' : 'exports.handler = async () => {};',
    ),
  });

/**
 * For a test that synthesizes the whole route table (or more) inside `it`: 5-10 s alone on the
 * 2-core machine, several times that while other suites run beside it.
 */
export const SYNTH_TIMEOUT = 120_000;

/** A fresh App whose cloud assembly goes to a temp dir that `cleanUp()` removes. */
export const newApp = (): { app: App; outdir: string } => {
  const outdir = mkdtempSync(join(tmpdir(), 'cdk-test-'));
  outdirs.push(outdir);
  return { app: new App({ outdir }), outdir };
};

/** Settings prod requires (infra/settings.ts), valid and not the dev placeholders. */
export const PROD_SETTINGS = {
  googleClientId: 'test-client.apps.googleusercontent.com',
  alarmEmail: 'oncall@example.org',
  siteUrl: 'https://site.example.org',
  playbackKeys: '2026-11,2027-02',
  mailFrom: 'no-reply@mail.example.org',
  target: '123456789012/eu-west-1',
  devTargets: '210987654321/eu-west-1',
  creatorSecondFactor: 'required',
} as const;

type Json = Record<string, any>;

/** The nested stacks whose parent is `stack` (the route stacks of ApiStack). */
export const nestedStacksOf = (stack: Stack): NestedStack[] =>
  stack.node
    .findAll()
    .filter((c): c is NestedStack => NestedStack.isNestedStack(c) && c.nestedStackParent === stack);

/** Every stack CloudFormation deploys for `stack`, by construct path: the stack and each nested one. */
export const templatesOf = (stack: Stack): Array<{ path: string; template: Template }> => [
  { path: stack.node.path, template: Template.fromStack(stack) },
  ...nestedStacksOf(stack).flatMap((nested) => templatesOf(nested)),
];

/** Replaces `{ Ref: name }` by `refs[name]` and `Fn::GetAtt [id, 'Outputs.X']` by `outputs[id][X]`. */
const substitute = (value: unknown, refs: Json, outputs: Record<string, Json>): any => {
  if (Array.isArray(value)) return value.map((v) => substitute(v, refs, outputs));
  if (value === null || typeof value !== 'object') return value;
  const obj = value as Json;
  const keys = Object.keys(obj);
  if (keys.length === 1 && keys[0] === 'Ref' && typeof obj.Ref === 'string' && obj.Ref in refs) {
    return refs[obj.Ref];
  }
  if (keys.length === 1 && keys[0] === 'Fn::GetAtt') {
    const [id, attribute] = obj['Fn::GetAtt'] as [string, string];
    const output = attribute.startsWith('Outputs.') ? outputs[id]?.[attribute.slice(8)] : undefined;
    if (output !== undefined) return output;
  }
  return Object.fromEntries(keys.map((k) => [k, substitute(obj[k], refs, outputs)]));
};

/**
 * The stack and its nested stacks as ONE template, as if nothing were nested: each nested
 * template's parameters are replaced by the values the parent passes (so a nested function's
 * `TABLE_NAME` reads `{ Ref: <table> }` again), the parent's reads of nested outputs by the
 * outputs' values, and the resources merged (a logical id in two stacks is an error here).
 * Assertions about what is deployed (one function per row, grants, alarms) read this; assertions
 * about the split itself read `templatesOf`.
 */
export const flatTemplateOf = (stack: Stack): Json => {
  const own = Template.fromStack(stack).toJSON() as Json;
  const resources: Json = {};
  const outputs: Record<string, Json> = {};
  for (const nested of nestedStacksOf(stack)) {
    const resourceId = stack.getLogicalId(nested.nestedStackResource as CfnResource);
    const parameters = own.Resources[resourceId]?.Properties?.Parameters ?? {};
    const inner = flatTemplateOf(nested);
    const merged = substitute(inner, parameters, {});
    for (const [id, resource] of Object.entries(merged.Resources as Json)) {
      if (id in resources) throw new Error(`Logical id ${id} appears in two nested stacks`);
      resources[id] = resource;
    }
    outputs[resourceId] = Object.fromEntries(
      Object.entries((merged.Outputs ?? {}) as Json).map(([name, output]) => [name, output.Value]),
    );
  }
  const parent = substitute(own, {}, outputs);
  for (const [id, resource] of Object.entries(parent.Resources as Json)) {
    if (id in resources) throw new Error(`Logical id ${id} appears in the parent and a nested stack`);
    resources[id] = resource;
  }
  return { ...parent, Resources: resources };
};

/**
 * Synthesizes the stack without bundling (placeholder code); the routes default to the real table.
 * `template`: the stack with its route stacks flattened in (flatTemplateOf); `parent`: the
 * top-level stack's own template.
 */
export const synthStack = (
  routes: readonly RouteRow[],
  overrides: Partial<ApiStackProps> = {},
): { template: Template; parent: Template; stack: ApiStack } => {
  const { app } = newApp();
  const stack = new ApiStack(app, 'Test', {
    stage: 'dev',
    routes,
    code: placeholderCode,
    googleClientId: PROD_SETTINGS.googleClientId,
    ...(overrides.stage === 'prod' ? PROD_SETTINGS : {}),
    ...overrides,
  });
  return {
    template: Template.fromJSON(flatTemplateOf(stack), { skipCyclicalDependenciesCheck: true }),
    parent: Template.fromStack(stack),
    stack,
  };
};

export const cleanUp = (): void => {
  for (const dir of outdirs.splice(0)) rmSync(dir, { recursive: true, force: true });
};

/** `count` distinct synthetic rows cycling through the access profiles the spec's routes use. */
export const syntheticRoutes = (count: number, domains = 1): RouteRow[] =>
  Array.from({ length: count }, (_, i) => ({
    method: (['GET', 'POST', 'PATCH', 'DELETE'] as const)[i % 4]!,
    path: `/synthetic/r${i}/{id}`,
    handler: `synthetic${i % domains || ''}/handle-r${i}`,
    auth: (['none', 'optional', 'required'] as const)[i % 3]!,
    dynamo: [
      { actions: ['GetItem', 'Query'] as const, indexes: ['GSI1'] as const },
      { actions: ['GetItem', 'PutItem', 'UpdateItem'] as const },
      undefined,
    ][i % 3],
    needs: i % 7 === 0 ? (['token-signer'] as const) : undefined,
    throttle: i % 5 === 0 ? { rate: 5, burst: 10 } : undefined,
    summary: `synthetic route ${i}`,
    tag: 'Synthetic',
  }));
