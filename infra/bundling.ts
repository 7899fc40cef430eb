import { resolve } from 'node:path';
import { type BundlingOptions, LogLevel, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { type DeployedRow, settingsOf } from '../shared/platform/access.ts';
import type { RouteRow } from '../shared/routing/route.ts';

/**
 * How every Lambda bundle is built: the stack's NodejsFunction bundling and the benchmark's
 * esbuild builds both read these settings, so the benchmark measures what ships.
 */

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
} as const;

/** LAMBDA_BUNDLING as esbuild build options (the bench's and the tests' own builds of a function). */
export const lambdaEsbuildOptions = () => ({
  bundle: true,
  format: LAMBDA_BUNDLING.format,
  platform: LAMBDA_BUNDLING.platform,
  target: LAMBDA_BUNDLING.target,
  mainFields: [...LAMBDA_BUNDLING.mainFields],
  banner: { js: LAMBDA_BUNDLING.banner },
  minify: LAMBDA_BUNDLING.minify,
  sourcemap: LAMBDA_BUNDLING.sourcemap,
  sourcesContent: LAMBDA_BUNDLING.sourcesContent,
});

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

/** Shell words need no quoting when they are package paths like these; anything else is refused. */
const PACKAGE_FILE = /^(@[a-z0-9._-]+\/)?[a-z0-9._-]+\/[A-Za-z0-9._/-]+$/;

/** The commands that copy a row's run-time package files from the project's node_modules into its bundle. */
const copyFilesCommands = (files: readonly string[], inputDir: string, outputDir: string): string[] =>
  files.map((file) => {
    if (!PACKAGE_FILE.test(file) || file.includes('..')) throw new Error(`not a package file: ${file}`);
    const target = `${outputDir}/${bundledFilePath(file)}`;
    return `mkdir -p "${target.slice(0, target.lastIndexOf('/'))}" && cp "${inputDir}/node_modules/${file}" "${target}"`;
  });

/**
 * LAMBDA_BUNDLING as NodejsFunction's bundling options: every bundled function of the stack (the
 * route functions, the workers, the playback key pair resource) is built with exactly these, and
 * the `define` of its row (bundleDefineOf); a row's run-time package files (`files`) are copied
 * in after esbuild.
 */
export const nodejsBundling = (row?: BundleRow & { files?: readonly string[] }): BundlingOptions => ({
  format: OutputFormat.ESM,
  mainFields: [...LAMBDA_BUNDLING.mainFields],
  banner: LAMBDA_BUNDLING.banner,
  minify: LAMBDA_BUNDLING.minify,
  sourceMap: LAMBDA_BUNDLING.sourcemap,
  sourcesContent: LAMBDA_BUNDLING.sourcesContent,
  target: LAMBDA_BUNDLING.target,
  // The pinned SDK the tests ran against, not whatever the runtime ships.
  bundleAwsSDK: true,
  forceDockerBundling: false,
  logLevel: LogLevel.ERROR,
  define: bundleDefineOf(row),
  esbuildArgs: Object.fromEntries(
    Object.entries(LAMBDA_BUNDLE_ALIAS).map(([name, path]) => [`--alias:${name}`, path]),
  ),
  // The row's run-time package files beside the bundle (bundledFilePath).
  ...(row?.files?.length
    ? {
        commandHooks: {
          beforeBundling: () => [],
          beforeInstall: () => [],
          afterBundling: (inputDir: string, outputDir: string) =>
            copyFilesCommands(row.files ?? [], inputDir, outputDir),
        },
      }
    : {}),
});
