import { defineConfig } from 'vitest/config';

const shared = {
  pool: 'forks' as const,
  testTimeout: 30_000,
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
