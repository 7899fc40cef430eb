import * as z from 'zod/mini';

/**
 * Documentation on a schema, kept in zod's metadata so the OpenAPI document (and the clients
 * generated from it) carry it: what a field means and an example taken from the demo data.
 *
 * A schema met for the first time is documented in place (a registry entry): copying it, as
 * `.check(z.meta())` does, costs a full zod construction, and the several hundred documented
 * fields made the functions' cold imports ~1.15x slower (bench). A schema that already carries
 * metadata is copied, so one used in several places keeps each place's own words. Hence the
 * rule: a schema shared by several fields (`idParam`, `searchText`, ...) is documented where it
 * is defined, in general terms, and each use that says more gets its own copy.
 *
 * In a Lambda bundle (`process.env.LAMBDA_BUNDLE_RESPONSES` defined as `"none"`, infra/bundling.ts)
 * it returns the schema as it is: only the OpenAPI document reads the documentation, and a copy
 * validates exactly as the schema does, so a function's cold start makes neither (issue 41).
 */
export const described = <S extends z.ZodMiniType>(schema: S, description: string, example?: unknown): S => {
  if (process.env.LAMBDA_BUNDLE_RESPONSES === 'none') return schema;
  const meta = { description, ...(example === undefined ? {} : { examples: [example] }) };
  if (z.globalRegistry.has(schema)) return schema.check(z.meta(meta)) as S;
  z.globalRegistry.add(schema, meta);
  return schema;
};

/**
 * A schema with a name: it becomes `components.schemas.<id>` in the document, and a named type
 * in generated clients. Each id is registered once (zod's global registry refuses a second).
 * Registers nothing in a Lambda bundle, as `described`.
 */
export const named = <S extends z.ZodMiniType>(id: string, schema: S, description: string): S => {
  if (process.env.LAMBDA_BUNDLE_RESPONSES === 'none') return schema;
  z.globalRegistry.add(schema, { id, description });
  return schema;
};

/**
 * A module's response schemas, built on the first call and kept: a contract's `responses` is a
 * function (shared/http/contract.ts) read only by the OpenAPI document and the tests, so a
 * Lambda's cold start never builds them (issue 19; docs/performance.md). Built once because
 * `named` registers each id once. A module declares them as
 *
 *     const buildResponses = () => { ...; return { CreatorSummary, ... } };
 *     export const creatorResponses =
 *       process.env.LAMBDA_BUNDLE_RESPONSES === 'none' ? responsesNotBundled : responseSchemas(buildResponses);
 *
 * Lambda bundles define `process.env.LAMBDA_BUNDLE_RESPONSES` as `"none"` (infra/bundling.ts), so
 * esbuild folds the test and drops `buildResponses` with every schema and description in it. The
 * test must be written out in each module: esbuild folds only the literal `process.env` read.
 */
export const responseSchemas = <T>(build: () => T): (() => T) => {
  let built: T | undefined;
  return () => {
    built ??= build();
    return built;
  };
};

/** A Lambda bundle's stand-in for a module's response schemas: nothing there calls it. */
export const responsesNotBundled = (): never => {
  throw new Error('Response schemas are left out of Lambda bundles (infra/bundling.ts)');
};
