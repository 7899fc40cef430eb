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
