import { fromEnv } from '@aws-sdk/credential-provider-env';

/**
 * What every Lambda bundle has instead of `@aws-sdk/credential-provider-node` (esbuild `alias`,
 * infra/bundling.ts): the SDK clients' default credentials from the environment only. Lambda puts
 * the execution role's credentials there (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
 * AWS_SESSION_TOKEN) for the whole life of the execution environment, and the default chain
 * finds them there first; the rest of that chain (ini files, SSO, the login and process
 * providers, web identity, the container and instance metadata services, and the STS/SSO clients
 * they bring) never runs on Lambda, yet every client's runtime config imports it: 135 KB of every
 * bundle, ~8 ms of every cold start (docs/performance.md, sixth round). A function moved to a
 * host that is not Lambda (ECS, EC2) needs the default chain back: drop the alias.
 * Tests, `npm start` and the bench's in-process runs are not bundled and keep the default chain;
 * test/infra/lambda-bundles.int.test.ts runs every real bundle with Lambda's environment.
 */
export const defaultProvider = (init: Parameters<typeof fromEnv>[0] = {}) => fromEnv(init);
