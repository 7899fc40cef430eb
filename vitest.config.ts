import { defineConfig } from 'vitest/config';

const shared = {
  pool: 'forks' as const,
  // A hang guard, not a measure (as hookTimeout): with two workers a test shares the 2 cores with
  // another file (and, on the shared CI machine, with other people's benches); 30 s cut off
  // tests that take 3-12 s alone (docs browser, 401 envelopes, 429 budgets, export-titles) under
  // load 15-27.
  testTimeout: 120_000,
  hookTimeout: 120_000,
  env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
  setupFiles: ['test/support/local-aws.ts'],
};

/**
 * Two projects: `unit` (no network, pure or in-memory) and `integration` (*.int.test.ts:
 * real handlers through the local server against DynamoDB Local, started once by global-setup).
 */
export default defineConfig({
  test: {
    // Vitest's default in `run` mode is availableParallelism() - 1 workers: ONE on the 2-core CI
    // machine, so the 111 files ran one after the other while the integration files mostly wait
    // on DynamoDB Local (another process) and timers (a clean-clone run used ~1.3 of 2 cores).
    // Two workers overlap those waits. VITEST_MAX_WORKERS overrides (1 for the serial run).
    maxWorkers: Number(process.env.VITEST_MAX_WORKERS ?? 2),
    projects: [
      {
        test: { ...shared, name: 'unit', include: ['test/**/*.test.ts'], exclude: ['test/**/*.int.test.ts'] },
      },
      {
        test: {
          ...shared,
          name: 'integration',
          include: ['test/**/*.int.test.ts'],
          globalSetup: ['test/global-setup.ts'],
        },
      },
    ],
  },
});
