import { join } from 'node:path';
import { build } from 'esbuild';
import { LAMBDA_BUNDLING } from '../infra/bundling.ts';

/**
 * Bundles Lambda handlers with the options the stack's NodejsFunction passes to the same local
 * esbuild (infra/bundling.ts; the AWS SDK bundled, nothing external): `entries` maps a folder name
 * to an entry file, and each bundle lands in `<outDir>/<name>/index.mjs` with its source map.
 * One esbuild run builds them all: without code splitting esbuild links every entry point on its
 * own, so each file is byte-identical to a build of that entry alone, and the modules they share
 * (AWS SDK, middy, zod) are parsed once instead of once per function. The benchmark measures, and
 * the Node 22 bundle test runs, these files. Returns the bundle file of each name.
 */
export const bundleLambdas = async (
  entries: ReadonlyMap<string, string>,
  outDir: string,
): Promise<Map<string, string>> => {
  await build({
    entryPoints: Object.fromEntries([...entries].map(([name, entry]) => [`${name}/index`, entry])),
    outdir: outDir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    format: LAMBDA_BUNDLING.format,
    platform: LAMBDA_BUNDLING.platform,
    target: LAMBDA_BUNDLING.target,
    mainFields: [...LAMBDA_BUNDLING.mainFields],
    banner: { js: LAMBDA_BUNDLING.banner },
    minify: LAMBDA_BUNDLING.minify,
    sourcemap: LAMBDA_BUNDLING.sourcemap,
    sourcesContent: LAMBDA_BUNDLING.sourcesContent,
    logLevel: 'error',
  });
  return new Map([...entries.keys()].map((name) => [name, join(outDir, name, 'index.mjs')]));
};
