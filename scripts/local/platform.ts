import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { type DynamoDbLocal, startDynamoDbLocal } from './dynamodb-local.ts';

/**
 * Brings up the local data plane: DynamoDB Local (unless DYNAMODB_ENDPOINT names another
 * endpoint), the table, and the seeded demo catalogue. Used by `npm start` and the test setup.
 */
export interface LocalPlatform {
  endpoint: string;
  seededAt: Date;
  items: number;
  stop(): Promise<void>;
}

export const startLocalPlatform = async (
  options: { now?: Date; seed?: number; scale?: number } = {},
): Promise<LocalPlatform> => {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  process.env.TABLE_NAME ??= 'creator-streaming-local';
  // Google sign-in verifies tokens from the local identity provider (shared/identity/local-idp.ts).
  process.env.GOOGLE_IDP ??= 'local';
  let local: DynamoDbLocal | undefined;
  if (!process.env.DYNAMODB_ENDPOINT) {
    local = await startDynamoDbLocal({
      port: process.env.DYNAMODB_PORT ? Number(process.env.DYNAMODB_PORT) : undefined,
    });
    process.env.DYNAMODB_ENDPOINT = local.endpoint;
  }
  const endpoint = process.env.DYNAMODB_ENDPOINT;
  try {
    // Imported only now: the shared DynamoDB client reads DYNAMODB_ENDPOINT when first loaded.
    const { createTable } = await import('../../shared/db/create-table.ts');
    const { tableName } = await import('../../shared/db/table.ts');
    const { generateCatalog } = await import('../../shared/seed/generate.ts');
    const { loadCatalog } = await import('../../shared/seed/load.ts');
    const admin = new DynamoDBClient({
      endpoint,
      region: 'local',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    await createTable(admin, tableName());
    const seededAt = options.now ?? new Date();
    const catalog = generateCatalog({ now: seededAt, seed: options.seed, scale: options.scale });
    const { items } = await loadCatalog(catalog, seededAt);
    return { endpoint, seededAt, items, stop: async () => local?.stop() };
  } catch (error) {
    await local?.stop();
    throw error;
  }
};
