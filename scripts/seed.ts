/**
 * `npm run seed`: loads the deterministic demo catalogue (the one `npm start` serves: creators,
 * ranked lists, search index, shows and episodes, home layout, EPG) into the table of a deployed
 * stack, through the same loader and repository item builders as the local platform.
 *
 *   TABLE_NAME=<stack output TableName> CDN_URL=https://<stack output MediaCdnDomain> \
 *     npm run seed -- [--seed 42] [--scale 1] [--force]
 *
 * CDN_URL is the deployment's `{cdn_url}`, which every media URL of the catalogue is under
 * (avatars, posters, streams), as the functions build theirs from the same setting.
 * Credentials and region come from the default AWS chain (AWS_PROFILE, AWS_REGION, ...);
 * the SDK's AWS_ENDPOINT_URL_DYNAMODB points it at DynamoDB Local instead (dummy credentials then
 * where the environment has none: scripts/local/local-table.ts). Demo accounts are
 * not loaded (their passwords are public, docs/demo-data.md). A table that already holds items is
 * refused unless --force: times in the catalogue are relative to now, so a second load would add
 * a second, overlapping EPG.
 */
import { DescribeTableCommand, ResourceNotFoundException } from '@aws-sdk/client-dynamodb';
import { ScanCommand } from '../shared/db/scan.ts';
import { parseArgs } from 'node:util';
import { localTable, useLocalCredentialsWithLocalTable } from './local/local-table.ts';
import { db, dynamo } from '../shared/db/client.ts';
import { generateCatalog } from './seed/generate.ts';
import { loadCatalog } from './seed/load.ts';

const fail = (message: string): never => {
  throw new Error(message);
};

/** The settings and options, or a failure naming every problem with them at once. */
const options = () => {
  const { values } = parseArgs({
    options: {
      seed: { type: 'string', default: '42' },
      scale: { type: 'string', default: '1' },
      force: { type: 'boolean', default: false },
    },
  });
  const table = process.env.TABLE_NAME;
  const seed = Number(values.seed);
  const scale = Number(values.scale);
  const problems = [
    !table && 'TABLE_NAME is required: the name of the deployed table (the stack output TableName).',
    !process.env.CDN_URL &&
      "CDN_URL is required: the media CDN's URL, https://<the stack output MediaCdnDomain>.",
    process.env.VITEST &&
      !localTable() &&
      'refusing to seed AWS from a test run: set AWS_ENDPOINT_URL_DYNAMODB to a DynamoDB Local endpoint.',
    !Number.isInteger(seed) && `--seed must be an integer, got "${values.seed}".`,
    !(Number.isFinite(scale) && scale > 0) && `--scale must be a positive number, got "${values.scale}".`,
  ].filter((problem): problem is string => Boolean(problem));
  if (!table || problems.length > 0) throw new Error(problems.join('\n'));
  return { table, seed, scale, force: values.force };
};

const main = async () => {
  const { table, seed, scale, force } = options();
  useLocalCredentialsWithLocalTable();
  const region = await dynamo.config
    .region()
    .catch(() => fail('no AWS region: set AWS_REGION (or a region in the AWS profile).'));
  const target = process.env.AWS_ENDPOINT_URL_DYNAMODB ?? `AWS region ${region}`;
  try {
    await dynamo.send(new DescribeTableCommand({ TableName: table }));
  } catch (error) {
    if (error instanceof ResourceNotFoundException) fail(`table "${table}" does not exist in ${target}.`);
    throw error;
  }
  const existing = await db.send(new ScanCommand({ TableName: table, Select: 'COUNT', Limit: 1 }));
  if ((existing.Count ?? 0) > 0 && !force)
    fail(`table "${table}" already holds items; pass --force to load the catalogue into it anyway.`);
  const now = new Date();
  const catalog = generateCatalog({ now, seed, scale });
  const { items } = await loadCatalog({ ...catalog, accounts: [] }, now);
  console.log(
    `seeded ${items} items (seed ${seed}, scale ${scale}, catalogue time ${now.toISOString()}) into "${table}" (${target})`,
  );
};

try {
  await main();
} catch (error) {
  for (const line of (error as Error).message.split('\n')) console.error(`seed: ${line}`);
  process.exitCode = 1;
}
