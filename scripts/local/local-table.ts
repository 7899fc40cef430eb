/**
 * The region and credentials of everything local: Lambda puts the region and the execution role's
 * credentials in a function's environment; locally these dummies, which only DynamoDB Local and
 * the stand-ins ever see (each handler's environment: scripts/local/aws.ts; the local platform's
 * own process: scripts/local/platform.ts).
 */
export const LOCAL_AWS_ENVIRONMENT = {
  AWS_REGION: 'local',
  AWS_ACCESS_KEY_ID: 'local',
  AWS_SECRET_ACCESS_KEY: 'local',
} as const;

/**
 * Points this process's AWS SDK, and every process it starts, at DynamoDB Local at `endpoint`
 * (its table API and its Streams API, through the SDK's own endpoint settings), with the local
 * region and dummy credentials: for the local platform and the benches that run a DynamoDB Local
 * of their own. Real credentials of the shell are dropped: nothing local signs for an account.
 */
export const useDynamoDbLocal = (endpoint: string): void => {
  process.env.AWS_ENDPOINT_URL_DYNAMODB = endpoint;
  process.env.AWS_ENDPOINT_URL_DYNAMODB_STREAMS = endpoint;
  Object.assign(process.env, LOCAL_AWS_ENVIRONMENT);
  delete process.env.AWS_SESSION_TOKEN;
};

/**
 * For the commands run against a table from a shell (`npm run seed`, `operator`, `rebuild-views`):
 * is the table DynamoDB Local (or another stand-in), named by the SDK's own endpoint setting
 * `AWS_ENDPOINT_URL_DYNAMODB`, as every client of the project finds its stand-in?
 */
export const localTable = (): boolean => Boolean(process.env.AWS_ENDPOINT_URL_DYNAMODB);

/**
 * Against a local table the SDK still signs every call: dummy credentials and the stand-ins'
 * region (us-east-1, as the local IVS and IVS Chat ARNs) where the environment has none, so
 * `AWS_ENDPOINT_URL_DYNAMODB=... npm run seed` works without an AWS profile. A no-op against AWS,
 * where the default chain applies.
 */
export const useLocalCredentialsWithLocalTable = (): void => {
  if (!localTable()) return;
  process.env.AWS_REGION ??= 'us-east-1';
  process.env.AWS_ACCESS_KEY_ID ??= LOCAL_AWS_ENVIRONMENT.AWS_ACCESS_KEY_ID;
  process.env.AWS_SECRET_ACCESS_KEY ??= LOCAL_AWS_ENVIRONMENT.AWS_SECRET_ACCESS_KEY;
};
