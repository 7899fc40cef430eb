import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { bundleLambdas } from '../../scripts/lambda-bundle.ts';

/**
 * Lambda bundles carry no response schema (issue 19, cold starts): `LAMBDA_BUNDLE_DEFINE`
 * (infra/bundling.ts) folds away each module's `<domain>Responses` builder, while the request
 * schemas stay (the handler validates with them). Since issue 41 a bundle also carries only its
 * own route's contract and the request schemas that contract reads: every top-level value a
 * schema or contracts module builds is `/* @__PURE__ *\/`, so esbuild drops the other routes'
 * (test/infra/bundle-clients.test.ts checks every route's bundle for other contracts).
 */
const out = mkdtempSync(join(tmpdir(), 'bundle-responses-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

const ROOT = resolve(import.meta.dirname, '../..');

/** `node` or anything in it outside functions (whose bodies run only when called) matches `hit`. */
const anywhere = (node: ts.Node, hit: (node: ts.Node) => boolean): boolean =>
  !ts.isArrowFunction(node) &&
  !ts.isFunctionExpression(node) &&
  (hit(node) || ts.forEachChild(node, (child) => anywhere(child, hit) || undefined) === true);

/**
 * What esbuild keeps of an unused value: calls, spreads and property reads (getters). A call
 * marked pure is dropped, but its arguments are kept if they have any of these, or a template
 * with substitutions (`toString`).
 */
const kept = (node: ts.Node) =>
  anywhere(
    node,
    (n) =>
      ts.isCallExpression(n) ||
      ts.isNewExpression(n) ||
      ts.isTaggedTemplateExpression(n) ||
      ts.isSpreadAssignment(n) ||
      ts.isSpreadElement(n) ||
      ts.isPropertyAccessExpression(n) ||
      ts.isElementAccessExpression(n),
  );
const keptAsArgument = (node: ts.Node) => kept(node) || anywhere(node, ts.isTemplateExpression);

/**
 * The top-level values of a module that a bundle would build even when nothing reads them: a
 * `const` whose initializer may have effects and is neither `/* @__PURE__ *\/ f(args)` with
 * effect-free arguments nor a pure IIFE `/* @__PURE__ *\/ (() => ...)()`. A value folded away in
 * bundles (`process.env.LAMBDA_BUNDLE_RESPONSES === 'none' ? ...`) needs neither.
 */
const impureValues = (file: string): string[] => {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  return source.statements.flatMap((statement) =>
    ts.isVariableStatement(statement)
      ? statement.declarationList.declarations.flatMap((declaration) => {
          const init = declaration.initializer;
          if (!init || ts.isArrowFunction(init) || ts.isFunctionExpression(init) || !kept(init)) return [];
          if (
            ts.isConditionalExpression(init) &&
            init.condition.getText(source).includes('LAMBDA_BUNDLE_RESPONSES')
          )
            return [];
          const annotated = text
            .slice(declaration.name.end, init.getStart(source))
            .includes('/* @__PURE__ */');
          const call = ts.isCallExpression(init) ? init : undefined;
          const iife =
            call !== undefined &&
            call.arguments.length === 0 &&
            ts.isParenthesizedExpression(call.expression) &&
            ts.isArrowFunction(call.expression.expression);
          const pureCall =
            call !== undefined && !keptAsArgument(call.expression) && !call.arguments.some(keptAsArgument);
          return annotated && (iife || pureCall)
            ? []
            : [`${relative(ROOT, file)}: ${declaration.name.getText(source)}`];
        })
      : [],
  );
};

/** Every module of shared/ and functions/ that builds Zod schemas or contracts at its top level. */
const schemaModules = () =>
  ['shared', 'functions']
    .flatMap((dir) =>
      (readdirSync(join(ROOT, dir), { recursive: true }) as string[]).map((file) => join(ROOT, dir, file)),
    )
    .filter((file) => file.endsWith('.ts'))
    .filter(
      (file) =>
        !/(shared\/http\/(contract|schema-meta)|shared\/openapi\/build-document|functions\/routes)\.ts$/.test(
          file,
        ),
    )
    .filter((file) =>
      /from '(zod\/mini|zod|[./]+\/shared\/http\/contract\.ts)'/.test(readFileSync(file, 'utf8')),
    );

describe('Lambda bundles', () => {
  it('leave the response schemas and the other routes out, and keep their own request schemas', async () => {
    const entry = resolve(import.meta.dirname, '../../functions/creators/list-creators.ts');
    const files = await bundleLambdas(new Map([['list-creators', entry]]), out);
    const code = readFileSync(files.get('list-creators')!, 'utf8');
    expect(code).toContain('Only creators of this category');
    expect(code).toContain('operationId:"listCreators"');
    expect(code).not.toContain('A creator as lists show them');
    expect(code).not.toContain('abbreviated for display');
    // The creators contracts' other routes, the search query they read and the shows schemas
    // the creator-series route reads were all built at every creators function's import before.
    expect(
      ['operationId:"searchCreators"', 'Text to find in creator names', 'Only shows of this category'].filter(
        (text) => code.includes(text),
      ),
    ).toEqual([]);
  }, 60_000);

  it('drop what their route never reads: schema and contracts modules build pure top-level values', () => {
    const modules = schemaModules();
    expect(modules.length).toBeGreaterThan(40);
    expect(modules.flatMap(impureValues)).toEqual([]);
  });

  it('the purity check finds a value built without the annotation', () => {
    const file = join(out, 'impure.ts');
    writeFileSync(
      file,
      [
        "import * as z from 'zod/mini';",
        'export const a = /* @__PURE__ */ (() => z.object({ x: z.string() }))();',
        'export const b = z.object({ x: z.string() });',
        'const base = { x: 1 };',
        'export const c = /* @__PURE__ */ f({ ...base });',
        'export const d = /* @__PURE__ */ f({ x: base });',
      ].join('\n'),
    );
    expect(impureValues(file).map((v) => v.split(': ')[1])).toEqual(['b', 'c']);
  });
});
