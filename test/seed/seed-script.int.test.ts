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
 * the SDK's AWS_ENDPOINT_URL_DYNAMODB is set, and so is its AWS_ENDPOINT_URL for every service (in
 * case a case unsets the first), with dummy credentials: nothing can reach AWS.
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
      AWS_ENDPOINT_URL_DYNAMODB: local.endpoint,
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
  // One run names every problem of its settings and options (each a line of its own), so one
  // process proves each check fails the run (a process start costs 1-3 s; docs/conventions.md "Test time").
  it("fails with a clear message for each: no TABLE_NAME, no CDN_URL (the catalogue's media URLs are under it), a test process without AWS_ENDPOINT_URL_DYNAMODB (it would be AWS), a bad --seed and --scale", async () => {
    const result = await runSeed(['--seed', 'x', '--scale', '0'], {
      TABLE_NAME: undefined,
      CDN_URL: undefined,
      VITEST: 'true',
      AWS_ENDPOINT_URL_DYNAMODB: undefined,
    });
    expect(result.code).toBe(1);
    expect(result.stderr.split('\n').filter((line) => line.startsWith('seed:'))).toEqual([
      expect.stringMatching(/^seed: TABLE_NAME is required/),
      expect.stringMatching(/^seed: CDN_URL is required/),
      'seed: refusing to seed AWS from a test run: set AWS_ENDPOINT_URL_DYNAMODB to a DynamoDB Local endpoint.',
      'seed: --seed must be an integer, got "x".',
      'seed: --scale must be a positive number, got "0".',
    ]);
  });

  it('fails when the table does not exist', async () => {
    const missing = await runSeed([]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`table "${TABLE}" does not exist`);
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
