import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, paginateScan } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DynamoDbLocal, startDynamoDbLocal } from '../../scripts/local/dynamodb-local.ts';
import { createTable } from '../../shared/db/create-table.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const TABLE = 'seed-script-test';
const CDN = 'https://d111111abcdef8.cloudfront.net';
let local: DynamoDbLocal;
let admin: DynamoDBClient;

/**
 * Runs `scripts/seed.ts` as `npm run seed` would, always against this file's own DynamoDB Local:
 * DYNAMODB_ENDPOINT is set, and so is the SDK's own AWS_ENDPOINT_URL (in case a case unsets it),
 * with dummy credentials: nothing can reach AWS.
 */
const runSeed = (args: string[], env: Record<string, string | undefined> = {}) =>
  promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/seed.ts', ...args], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      AWS_REGION: 'local',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      AWS_ENDPOINT_URL: local.endpoint,
      DYNAMODB_ENDPOINT: local.endpoint,
      TABLE_NAME: TABLE,
      CDN_URL: CDN,
      ...env,
    },
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );

const scanAll = async (): Promise<Record<string, unknown>[]> => {
  const items: Record<string, unknown>[] = [];
  for await (const page of paginateScan({ client: DynamoDBDocumentClient.from(admin) }, { TableName: TABLE }))
    items.push(...(page.Items ?? []));
  return items;
};

beforeAll(async () => {
  local = await startDynamoDbLocal();
  admin = new DynamoDBClient({
    endpoint: local.endpoint,
    region: 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
});

afterAll(async () => {
  admin?.destroy();
  await local?.stop();
});

describe('npm run seed (scripts/seed.ts)', () => {
  it('fails with a clear message without TABLE_NAME', async () => {
    const result = await runSeed([], { TABLE_NAME: undefined });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('TABLE_NAME is required');
  });

  it("fails with a clear message without CDN_URL (the catalogue's media URLs are under it)", async () => {
    const result = await runSeed([], { CDN_URL: undefined });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('CDN_URL is required');
  });

  it('refuses to run from a test process without DYNAMODB_ENDPOINT (it would be AWS)', async () => {
    const result = await runSeed([], { VITEST: 'true', DYNAMODB_ENDPOINT: undefined });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('refusing to seed AWS from a test run');
  });

  it('fails when the table does not exist, and rejects a bad --scale', async () => {
    const missing = await runSeed([]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`table "${TABLE}" does not exist`);
    const badScale = await runSeed(['--scale', '0']);
    expect(badScale.code).toBe(1);
    expect(badScale.stderr).toContain('--scale must be a positive number');
  });

  it('loads the demo catalogue (without demo accounts) into an empty table, then refuses a second load', async () => {
    await createTable(admin, TABLE);
    const result = await runSeed(['--seed', '7', '--scale', '0.25']);
    expect(result.stderr).not.toContain('seed:');
    expect(result.code).toBe(0);
    const reported = Number(/seeded (\d+) items \(seed 7, scale 0.25,/.exec(result.stdout)?.[1]);

    const items = await scanAll();
    expect(items.length).toBe(reported);
    const count = (entity: string) => items.filter((item) => item.entity === entity).length;
    expect(count('creator')).toBe(60); // 240 × 0.25
    expect(count('show')).toBe(45); // 180 × 0.25
    expect(count('episode')).toBeGreaterThan(0);
    expect(count('program')).toBeGreaterThan(0);
    expect(count('home_layout')).toBe(1);
    expect(count('account')).toBe(0);
    const creator = items.find((item) => item.entity === 'creator' && item.id === 'cr_0001');
    expect(creator).toMatchObject({ id: 'cr_0001', slug: expect.any(String), name: expect.any(String) });
    const show = items.find((item) => item.entity === 'show');
    expect(show?.thumbnail_url).toMatch(new RegExp(`^${CDN}/shows/`));
    expect(JSON.stringify(items)).not.toContain('cdn.example.com');

    const again = await runSeed([]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already holds items; pass --force');
    expect((await scanAll()).length).toBe(reported);
  }, 120_000);
});
