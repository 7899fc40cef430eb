import { writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { build } from 'esbuild';
import { routes } from '../functions/routes.ts';
import { bundleDefineOf, LAMBDA_BUNDLE_ALIAS, lambdaEsbuildOptions } from '../infra/bundling.ts';

const FUNCTIONS = resolve(import.meta.dirname, '../functions');

/** The `define` of an entry's bundle: its route row's (bundleDefineOf); other entries (workers) get the common one. */
const defineOf = (entry: string): Record<string, string> => {
  const rows = routes.filter((row) => resolve(FUNCTIONS, `${row.handler}.ts`) === resolve(entry));
  if (rows.length === 0) return bundleDefineOf(undefined);
  // A handler module shared by several rows leaves out only what none of them uses.
  const [first, ...others] = rows.map(bundleDefineOf);
  return Object.fromEntries(
    Object.entries(first!).filter(([name, value]) => others.every((define) => define[name] === value)),
  );
};

/**
 * Bundles Lambda handlers with the options the stack's NodejsFunction passes to the same local
 * esbuild (infra/bundling.ts; the AWS SDK bundled, nothing external, each route's `define`):
 * `entries` maps a folder name to an entry file, and each bundle lands in
 * `<outDir>/<name>/index.mjs` with its source map. One esbuild run per distinct `define` (two:
 * routes without auth, and the rest) builds them all: without code splitting esbuild links every
 * entry point on its own, so each file is byte-identical to a build of that entry alone, and the
 * modules they share (AWS SDK, middy, zod) are parsed once per run instead of once per function.
 * The benchmark measures, and the Node 22 bundle test runs, these files. Returns the bundle file
 * of each name. `defaultCredentials`: without the stack's alias of the credential chain (the
 * benchmark's floor is the SDK's default DynamoDB client, as it was defined).
 */
export const bundleLambdas = async (
  entries: ReadonlyMap<string, string>,
  outDir: string,
  options: { defaultCredentials?: boolean } = {},
): Promise<Map<string, string>> => {
  const groups = new Map<string, Array<[string, string]>>();
  for (const [name, entry] of entries) {
    const key = JSON.stringify(defineOf(entry));
    groups.set(key, [...(groups.get(key) ?? []), [name, entry]]);
  }
  const results = await Promise.all(
    [...groups].map(([define, group]) =>
      build({
        entryPoints: Object.fromEntries(group.map(([name, entry]) => [`${name}/index`, entry])),
        outdir: outDir,
        outExtension: { '.js': '.mjs' },
        ...lambdaEsbuildOptions(),
        define: JSON.parse(define) as Record<string, string>,
        alias: options.defaultCredentials ? {} : { ...LAMBDA_BUNDLE_ALIAS },
        logLevel: 'error',
        metafile: true,
      }),
    ),
  );
  // Each bundle's source files, beside it (`inputs.json`): what the bundle tests read.
  for (const { metafile } of results)
    for (const [file, output] of Object.entries(metafile.outputs))
      if (file.endsWith('/index.mjs'))
        writeFileSync(join(dirname(file), 'inputs.json'), JSON.stringify(Object.keys(output.inputs)));
  return new Map([...entries.keys()].map((name) => [name, join(outDir, name, 'index.mjs')]));
};
