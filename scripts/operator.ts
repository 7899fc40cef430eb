/**
 * `npm run operator`: an operator's commands on a creator, against the table of a deployed stack
 * (editorial flags and suspension are an operator's, not a creator's: the studio API has none).
 *
 *   TABLE_NAME=<stack output TableName> npm run operator -- set-flags <creator id> [--featured true|false] [--hot true|false] [--tier ambassador|platinum|gold|silver]
 *   TABLE_NAME=... npm run operator -- suspend <creator id>
 *   TABLE_NAME=... npm run operator -- unsuspend <creator id>
 *
 * Credentials and region come from the default AWS chain (AWS_PROFILE, AWS_REGION, ...);
 * DYNAMODB_ENDPOINT points it at DynamoDB Local instead (shared/db/client.ts). An unknown creator
 * (or bad arguments) prints why and exits 1. The writes are shared/studio/operator-writes.ts.
 */
import { parseArgs } from 'node:util';
import { TIER_IDS, type TierId } from '../shared/catalog/model.ts';
import {
  type EditorialFlags,
  type OperatedCreator,
  setEditorialFlags,
  suspendCreator,
  unsuspendCreator,
} from '../shared/studio/operator-writes.ts';

const USAGE = [
  'usage: npm run operator -- set-flags <creator id> [--featured true|false] [--hot true|false] [--tier ambassador|platinum|gold|silver]',
  '       npm run operator -- suspend <creator id>',
  '       npm run operator -- unsuspend <creator id>',
].join('\n');

const fail = (message: string): never => {
  throw new Error(message);
};

const bool = (name: string, value: string | undefined): boolean | undefined => {
  if (value === undefined) return undefined;
  if (value === 'true' || value === 'false') return value === 'true';
  return fail(`--${name} must be true or false, got "${value}".`);
};

const tier = (value: string | undefined): TierId | undefined => {
  if (value === undefined) return undefined;
  return (TIER_IDS as readonly string[]).includes(value)
    ? (value as TierId)
    : fail(`--tier must be one of ${TIER_IDS.join(', ')}, got "${value}".`);
};

const options = () => {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      featured: { type: 'string' },
      hot: { type: 'string' },
      tier: { type: 'string' },
    },
  });
  process.env.TABLE_NAME ||
    fail('TABLE_NAME is required: the name of the deployed table (the stack output TableName).');
  if (process.env.VITEST && !process.env.DYNAMODB_ENDPOINT)
    fail('refusing to change AWS from a test run: set DYNAMODB_ENDPOINT to a DynamoDB Local endpoint.');
  const [command, creatorId, ...rest] = positionals;
  if (!command || !creatorId || rest.length > 0) fail(USAGE);
  const flags: EditorialFlags = {
    is_featured: bool('featured', values.featured),
    is_hot: bool('hot', values.hot),
    tier: tier(values.tier),
  };
  const given = Object.values(flags).some((value) => value !== undefined);
  if (command === 'set-flags' && !given)
    fail(`set-flags needs at least one of --featured, --hot, --tier.\n${USAGE}`);
  if (command !== 'set-flags' && given) fail(`${command} takes no flags.\n${USAGE}`);
  return { command: command!, creatorId: creatorId!, flags };
};

const describe = (c: OperatedCreator) =>
  `${c.id} (${c.name}): tier ${c.tier}, featured ${c.is_featured}, hot ${c.is_hot}, ${c.suspended_at ? `suspended since ${c.suspended_at}` : 'not suspended'}, version ${c.version}`;

const main = async () => {
  const { command, creatorId, flags } = options();
  const run: Record<string, () => Promise<OperatedCreator>> = {
    'set-flags': () => setEditorialFlags(creatorId, flags),
    suspend: () => suspendCreator(creatorId, new Date()),
    unsuspend: () => unsuspendCreator(creatorId),
  };
  const action = run[command] ?? fail(`unknown command "${command}".\n${USAGE}`);
  console.log(`${command}: ${describe(await action())}`);
};

try {
  await main();
} catch (error) {
  console.error(`operator: ${(error as Error).message}`);
  process.exitCode = 1;
}
