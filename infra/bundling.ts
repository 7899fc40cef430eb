import { type BundlingOptions, LogLevel, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';

/**
 * How every Lambda bundle is built: the stack's NodejsFunction bundling and the benchmark's
 * esbuild builds both read these settings, so the benchmark measures what ships.
 */

/**
 * Lets ESM bundles load the CommonJS dependencies that call `require` (the AWS SDK's and
 * Powertools' transitive ones): esbuild's ESM output has no `require` of its own.
 */
export const ESM_REQUIRE_BANNER =
  "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);";

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

/**
 * LAMBDA_BUNDLING as NodejsFunction's bundling options: every bundled function of the stack (the
 * route functions, the workers, the playback key pair resource) is built with exactly these.
 */
export const nodejsBundling = (): BundlingOptions => ({
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
});
