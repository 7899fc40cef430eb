import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { AssetHashType, type ILocalBundling } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { type BuildOptions, buildSync, type Metafile } from 'esbuild';
import { type DeployedRow, settingsOf } from '../shared/platform/access.ts';
import type { RouteRow } from '../shared/routing/route.ts';

/**
 * How every Lambda bundle is built: the stack's NodejsFunction bundling and the benchmark's
 * esbuild builds both read these settings, so the benchmark measures what ships.
 */

/** The repository: where handler entries and the node_modules of run-time package files are. */
export const PROJECT_ROOT = resolve(import.meta.dirname, '..');

/** The Lambda runtime every function runs on; its Node is what `target` builds for. */
export const LAMBDA_RUNTIME = lambda.Runtime.NODEJS_22_X;

/**
 * Lets ESM bundles load the CommonJS dependencies that call `require` (the AWS SDK's and
 * their transitive ones): esbuild's ESM output has no `require` of its own.
 */
export const ESM_REQUIRE_BANNER =
  "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);";

/**
 * Packages every bundle takes from elsewhere: the default credential chain becomes credentials
 * from the environment, which is where Lambda puts them (shared/aws/env-credentials.ts), and
 * `whatwg-url` (node-fetch's fallback for a Node without `url.URL`) Node's own URL
 * (shared/platform/whatwg-url.ts).
 */
export const LAMBDA_BUNDLE_ALIAS = {
  '@aws-sdk/credential-provider-node': resolve(import.meta.dirname, '../shared/aws/env-credentials.ts'),
  'whatwg-url': resolve(import.meta.dirname, '../shared/platform/whatwg-url.ts'),
} as const;

export const LAMBDA_BUNDLING = {
  format: 'esm',
  platform: 'node',
  target: 'node22',
  mainFields: ['module', 'main'],
  banner: ESM_REQUIRE_BANNER,
  minify: true,
  sourcemap: true,
  /** Stack traces map to file:line without shipping the sources (map ~5x smaller). */
  sourcesContent: false,
  /**
   * Code splitting: each module a function imports lazily (`await import(...)`: a service's client,
   * the token verifier, the breached-password filter) is a file of its own under `chunks/`, which
   * Node reads and compiles only when the request first needs it. In one file, V8 still scans
   * every lazily evaluated module at init (issue 41, seventh round: the cold-import median went
   * from 1.21x to 1.10x the fair floor, docs/performance.md).
   */
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
} as const;

/**
 * The esbuild build options of one function's bundle: `entry` built as `<outdir>/index.mjs` (the
 * Lambda handler `index.handler`), its source map beside it and its lazily imported modules in
 * `<outdir>/chunks/`, with `define` (bundleDefineOf) and the stack's aliases (unless
 * `defaultCredentials`: the benchmark's old floor, the SDK's default chain). The stack's bundling
 * (lambdaCode), the benchmark's and the tests' builds all start from these, so what is measured
 * and tested is what ships.
 */
export const lambdaBuildOptions = ({
  entry,
  outdir,
  define,
  defaultCredentials = false,
}: {
  entry: string;
  outdir: string;
  define: Record<string, string>;
  defaultCredentials?: boolean;
}) =>
  ({
    entryPoints: { index: entry },
    outdir,
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
    splitting: LAMBDA_BUNDLING.splitting,
    chunkNames: LAMBDA_BUNDLING.chunkNames,
    define,
    alias: defaultCredentials ? {} : { ...LAMBDA_BUNDLE_ALIAS },
    logLevel: 'error' as const,
    metafile: true as const,
    // Metafile paths (lambdaOutputs) are relative to this.
    absWorkingDir: PROJECT_ROOT,
  }) satisfies BuildOptions;

/**
 * The files of a function's bundle its `index.mjs` can load (static and dynamic imports, followed
 * through the chunks), by absolute path, after deleting the others and their maps: esbuild makes a
 * chunk for every `import()` it meets before tree shaking, so a lazily imported module whose only
 * caller was shaken away (a token signer's KMS client in a function that signs nothing) would ship
 * as a file nothing loads. Returns the kept outputs with the source files of each.
 */
export const lambdaOutputs = (metafile: Metafile): Map<string, string[]> => {
  const outputs = new Map(
    Object.entries(metafile.outputs)
      .filter(([file]) => file.endsWith('.mjs'))
      .map(([file, output]) => [resolve(PROJECT_ROOT, file), output]),
  );
  const index = [...outputs.keys()].find((file) => file.endsWith('/index.mjs'));
  const kept = new Set<string>();
  for (const pending = index ? [index] : []; pending.length > 0; ) {
    const file = pending.pop()!;
    if (kept.has(file)) continue;
    kept.add(file);
    for (const { path, external } of outputs.get(file)?.imports ?? [])
      if (!external) pending.push(resolve(PROJECT_ROOT, path));
  }
  for (const file of outputs.keys())
    if (!kept.has(file)) for (const path of [file, `${file}.map`]) rmSync(path, { force: true });
  return new Map([...kept].map((file) => [file, Object.keys(outputs.get(file)?.inputs ?? {})]));
};

/**
 * Every Lambda bundle's `define`: `process.env.LAMBDA_BUNDLE_RESPONSES` = `"none"` makes each
 * module's response schemas (`<domain>Responses`, built by `responseSchemas` in
 * shared/schema/schema-meta.ts) a folded-away branch, so the bundles carry neither those schemas
 * nor their documentation: only the OpenAPI document and the tests read a contract's `responses`.
 * The same define makes `described` and `named` (shared/schema/schema-meta.ts) register no
 * documentation on the request schemas either (issue 41).
 */
export const LAMBDA_BUNDLE_DEFINE = { 'process.env.LAMBDA_BUNDLE_RESPONSES': '"none"' } as const;

/**
 * The esbuild `define` of one function's bundle, from its row: LAMBDA_BUNDLE_DEFINE, and
 * - for a row that verifies no token (a route with `auth: 'none'`, a worker)
 *   `process.env.LAMBDA_BUNDLE_AUTH` = `"none"`, so its bundle leaves out the token verifier and
 *   aws-jwt-verify (shared/http/middleware/authenticate.ts). No bundle carries a KMS client for
 *   verification any more: the public key is in the verifying functions' environment
 *   (SIGNING_PUBLIC_JWK);
 * - for a route without request budgets (`rateLimit`), and a worker,
 *   `process.env.LAMBDA_BUNDLE_RATE_LIMIT` = `"none"`, so its bundle leaves out the rate limiter
 *   and the counter's UpdateItem (shared/http/middleware/rate-limit.ts; issue 41);
 * - for a whole row (route or worker), `process.env.LAMBDA_BUNDLE_SETTINGS`: the names of the
 *   settings its function needs (settingsOf), which the init-time check reads instead of building
 *   the stack's environment model into the bundle (shared/platform/access.ts `assertSettings`).
 */
type BundleRow = Partial<Pick<RouteRow, 'auth' | 'method' | 'rateLimit' | 'handler'>> & { trigger?: string };

/** A whole route or worker row, not a part of one (what the tests pass for one define). */
const isDeployedRow = (row: BundleRow | undefined): row is DeployedRow => row?.handler !== undefined;

export const bundleDefineOf = (row: BundleRow | undefined): Record<string, string> => ({
  ...LAMBDA_BUNDLE_DEFINE,
  ...(row?.auth === 'none' || row?.trigger !== undefined
    ? { 'process.env.LAMBDA_BUNDLE_AUTH': '"none"' }
    : {}),
  ...((row?.method !== undefined && row.rateLimit === undefined) || row?.trigger !== undefined
    ? { 'process.env.LAMBDA_BUNDLE_RATE_LIMIT': '"none"' }
    : {}),
  ...(isDeployedRow(row)
    ? { 'process.env.LAMBDA_BUNDLE_SETTINGS': JSON.stringify(settingsOf(row).join(',')) }
    : {}),
});

/**
 * Where a run-time package file of a row (FunctionRow `files`, e.g. `swagger-ui-dist/swagger-ui.css`)
 * lies in the function's bundle, relative to `index.mjs`: under `node_modules/`, where Node's
 * resolution from the bundle finds it, as it finds the repository's copy locally.
 */
export const bundledFilePath = (file: string): string => `node_modules/${file}`;

/** Run-time package files are package paths like these; anything else is refused. */
const PACKAGE_FILE = /^(@[a-z0-9._-]+\/)?[a-z0-9._-]+\/[A-Za-z0-9._/-]+$/;

/** Copies a row's run-time package files from the project's node_modules into its bundle (bundledFilePath). */
const copyPackageFiles = (files: readonly string[], outputDir: string): void => {
  for (const file of files) {
    if (!PACKAGE_FILE.test(file) || file.includes('..')) throw new Error(`not a package file: ${file}`);
    const target = join(outputDir, bundledFilePath(file));
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(join(PROJECT_ROOT, 'node_modules', file), target);
  }
};

/**
 * How the stack bundles one function, in the synthesizing process (CDK's local bundling; the
 * Docker image is never used: the build either succeeds or throws). Its data fields are part of
 * CDK's asset cache key (AssetStaging serialises the bundling options, methods left out), so
 * functions of one handler with different `define`s or files never share a bundle.
 */
export class LambdaBundling implements ILocalBundling {
  constructor(
    readonly entry: string,
    readonly define: Record<string, string>,
    readonly files: readonly string[],
  ) {}

  tryBundle(outputDir: string): boolean {
    lambdaOutputs(
      buildSync(lambdaBuildOptions({ entry: this.entry, outdir: outputDir, define: this.define })).metafile,
    );
    copyPackageFiles(this.files, outputDir);
    return true;
  }
}

/** The stack's local bundling of `entry` for `row` (its `define` and run-time package files). */
export const lambdaBundling = (
  entry: string,
  row?: BundleRow & { files?: readonly string[] },
): LambdaBundling => new LambdaBundling(entry, bundleDefineOf(row), row?.files ?? []);

/**
 * The code of a function of the stack (route functions, workers, custom resources): `entry` built
 * with lambdaBuildOptions and the `define` of its row (bundleDefineOf), its row's run-time package
 * files (`files`) copied in after esbuild; the asset is named by the hash of that output, as
 * NodejsFunction's were. NodejsFunction builds one file only (`--outfile`), which rules out code
 * splitting, hence this.
 */
export const lambdaCode = (entry: string, row?: BundleRow & { files?: readonly string[] }): lambda.Code =>
  lambda.Code.fromAsset(PROJECT_ROOT, {
    assetHashType: AssetHashType.OUTPUT,
    bundling: {
      image: LAMBDA_RUNTIME.bundlingImage,
      local: lambdaBundling(entry, row),
    },
  });
