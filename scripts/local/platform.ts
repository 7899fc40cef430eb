import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { type DynamoDbLocal, freePort, startDynamoDbLocal } from './dynamodb-local.ts';

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
  // DynamoDB Local (a JVM, ~2 s to boot) starts while the catalogue is generated: its port is
  // chosen first, so the shared client can be configured now.
  let starting: Promise<DynamoDbLocal> | undefined;
  if (!process.env.DYNAMODB_ENDPOINT) {
    const port = process.env.DYNAMODB_PORT ? Number(process.env.DYNAMODB_PORT) : await freePort();
    process.env.DYNAMODB_ENDPOINT = `http://127.0.0.1:${port}`;
    starting = startDynamoDbLocal({ port });
    starting.catch(() => {}); // awaited below; this only keeps an early failure from being "unhandled"
  }
  const endpoint = process.env.DYNAMODB_ENDPOINT;
  const stop = async () => (await starting?.catch(() => undefined))?.stop();
  try {
    // Imported only now: the shared DynamoDB client reads DYNAMODB_ENDPOINT when first loaded.
    const { createTable } = await import('../../shared/db/create-table.ts');
    const { tableName } = await import('../../shared/db/table.ts');
    const { generateCatalog } = await import('../../shared/seed/generate.ts');
    const { loadCatalog } = await import('../../shared/seed/load.ts');
    const seededAt = options.now ?? new Date();
    const catalog = generateCatalog({ now: seededAt, seed: options.seed, scale: options.scale });
    await starting;
    const admin = new DynamoDBClient({
      endpoint,
      region: 'local',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    await createTable(admin, tableName());
    const { items } = await loadCatalog(catalog, seededAt);
    return { endpoint, seededAt, items, stop };
  } catch (error) {
    await stop();
    throw error;
  }
};
