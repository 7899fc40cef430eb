import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { build } from 'esbuild';
import { routes } from '../functions/routes.ts';
import { bundleDefineOf, lambdaBuildOptions, lambdaOutputs } from '../infra/bundling.ts';

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
 * Bundles Lambda handlers as the stack does (infra/bundling.ts lambdaBuildOptions: the AWS SDK
 * bundled, nothing external, each route's `define`, lazily imported modules split into
 * `chunks/`): `entries` maps a folder name to an entry file, and each bundle lands in
 * `<outDir>/<name>/` as `index.mjs`, its chunks and their source maps, with `inputs.json`, the
 * source files of all of them (what the bundle tests read). One esbuild build per entry, all
 * started together: with code splitting, one build of several entries would share chunks between
 * them, which no deployed function does. The benchmark measures, and the Node 22 bundle test
 * runs, these folders. Returns the `index.mjs` of each name. `defaultCredentials`: without the
 * stack's alias of the credential chain (the benchmark's floor is the SDK's default DynamoDB
 * client, as it was defined).
 */
export const bundleLambdas = async (
  entries: ReadonlyMap<string, string>,
  outDir: string,
  options: { defaultCredentials?: boolean } = {},
): Promise<Map<string, string>> => {
  await Promise.all(
    [...entries].map(async ([name, entry]) => {
      const outdir = join(outDir, name);
      const { metafile } = await build(
        lambdaBuildOptions({
          entry,
          outdir,
          define: defineOf(entry),
          defaultCredentials: options.defaultCredentials,
        }),
      );
      const inputs = new Set([...lambdaOutputs(metafile).values()].flat());
      writeFileSync(join(outdir, 'inputs.json'), JSON.stringify([...inputs]));
    }),
  );
  return new Map([...entries.keys()].map((name) => [name, join(outDir, name, 'index.mjs')]));
};

/** The code files of the bundle whose `index.mjs` is `file`: it and its chunks (no maps). */
export const bundleFiles = (file: string): string[] => {
  const dir = dirname(file);
  const chunks = join(dir, 'chunks');
  return [
    file,
    ...(existsSync(chunks)
      ? readdirSync(chunks)
          .filter((name) => name.endsWith('.mjs'))
          .map((name) => join(chunks, name))
      : []),
  ];
};

/** The code the bundle whose `index.mjs` is `file` ships, index and chunks (what content tests read). */
export const bundleCode = (file: string): string =>
  bundleFiles(file)
    .map((f) => readFileSync(f, 'utf8'))
    .join('\n');
