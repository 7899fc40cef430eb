/**
 * `npm run operator`: an operator's commands on a creator, against the table of a deployed stack
 * (editorial flags and suspension are an operator's, not a creator's: the studio API has none).
 *
 *   TABLE_NAME=<stack output TableName> npm run operator -- set-flags <creator id> [--featured true|false] [--hot true|false] [--tier ambassador|platinum|gold|silver]
 *   TABLE_NAME=... npm run operator -- suspend <creator id>
 *   TABLE_NAME=... npm run operator -- unsuspend <creator id>
 *   TABLE_NAME=... npm run operator -- stop-stream <creator id> [reason] [--by <operator>]
 *   TABLE_NAME=... npm run operator -- approve-partner <account id> [--by <operator>]
 *   TABLE_NAME=... npm run operator -- revoke-partner <account id>
 *   TABLE_NAME=... STAGE=... CHAT_REVIEW_HANDLER_ARN=... CHAT_LOGGING_CONFIGURATION_ARN=... npm run operator -- chat-room <creator id>|all
 *     (the one-off for channels made before live chat: a room for one channel, or for every
 *     channel without one; the ARNs are the stack outputs ChatReviewHandlerArn and
 *     ChatLoggingConfigurationArn; docs/chat.md "Rooms"). Against DynamoDB Local, the local
 *     deployment's values and the running `npm start`'s IVS Chat stand-in are used.
 *
 * Credentials and region come from the default AWS chain (AWS_PROFILE, AWS_REGION, ...);
 * the SDK's AWS_ENDPOINT_URL_DYNAMODB points it at DynamoDB Local instead (dummy credentials and
 * a region are then filled in when the environment has none), and then IVS calls
 * go to the IVS stand-in of the running `npm start` (the SDK's AWS_ENDPOINT_URL_IVS, else IVS_PORT
 * or PORT + 1, as `npm run broadcast` finds it), never to AWS. An unknown creator (or bad arguments) prints why
 * and exits 1. The writes are shared/studio/operator-writes.ts; the moderation stop (delete the
 * stream key, StopStream, a new key, recorded on the creator) is shared/studio/moderation.ts.
 */
import { userInfo } from 'node:os';
import { parseArgs } from 'node:util';
import { localTable, useLocalCredentialsWithLocalTable } from './local/local-table.ts';
import { TIER_IDS, type TierId } from '../shared/catalog/model.ts';
import { type StopStreamResult, stopStreamForModeration } from '../shared/studio/moderation.ts';
import {
  type EditorialFlags,
  type OperatedCreator,
  setEditorialFlags,
  suspendCreator,
  unsuspendCreator,
} from '../shared/studio/operator-writes.ts';
import { approvePartner, revokePartner } from '../shared/webhooks/partners.ts';
import { backfillChatRooms, ensureChatRoom } from '../shared/chat/room-writes.ts';
import { LOCAL_CHAT } from './local/aws.ts';
import { standInPort } from './local/ports.ts';

const USAGE = [
  'usage: npm run operator -- set-flags <creator id> [--featured true|false] [--hot true|false] [--tier ambassador|platinum|gold|silver]',
  '       npm run operator -- suspend <creator id>',
  '       npm run operator -- unsuspend <creator id>',
  '       npm run operator -- stop-stream <creator id> [reason] [--by <operator>]',
  "       npm run operator -- approve-partner <account id> [--by <operator>]   (webhooks: any creator's public events)",
  '       npm run operator -- revoke-partner <account id>   (and revoke their subscriptions to other creators)',
  '       npm run operator -- chat-room <creator id>|all   (live chat: a room for channels made before chat)',
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
      by: { type: 'string' },
    },
  });
  process.env.TABLE_NAME ||
    fail('TABLE_NAME is required: the name of the deployed table (the stack output TableName).');
  if (process.env.VITEST && !localTable())
    fail(
      'refusing to change AWS from a test run: set AWS_ENDPOINT_URL_DYNAMODB to a DynamoDB Local endpoint.',
    );
  useLocalCredentialsWithLocalTable();
  const [command, creatorId, ...rest] = positionals;
  // Only stop-stream takes more words: its reason (quoted or not).
  if (!command || !creatorId || (rest.length > 0 && command !== 'stop-stream')) fail(USAGE);
  if (values.by !== undefined && command !== 'stop-stream' && command !== 'approve-partner')
    fail(`--by is for stop-stream and approve-partner only.\n${USAGE}`);
  const flags: EditorialFlags = {
    is_featured: bool('featured', values.featured),
    is_hot: bool('hot', values.hot),
    tier: tier(values.tier),
  };
  const given = Object.values(flags).some((value) => value !== undefined);
  if (command === 'set-flags' && !given)
    fail(`set-flags needs at least one of --featured, --hot, --tier.\n${USAGE}`);
  if (command !== 'set-flags' && given) fail(`${command} takes no flags.\n${USAGE}`);
  return {
    command: command!,
    creatorId: creatorId!,
    flags,
    reason: rest.join(' ').trim() || 'no reason given',
    by: values.by?.trim() || process.env.USER || userInfo().username,
  };
};

/**
 * Where the IVS calls of stop-stream go: the SDK's AWS_ENDPOINT_URL_IVS when set; against DynamoDB
 * Local, the IVS stand-in of the running `npm start` (its port as `npm run broadcast` finds it), so
 * a local table never leads to a call to AWS; else IVS on AWS (the default chain and region).
 */
const useLocalIvsWithLocalTable = () => {
  if (localTable())
    process.env.AWS_ENDPOINT_URL_IVS ??= `http://127.0.0.1:${standInPort('ivs', process.env)}`;
};

/**
 * Against DynamoDB Local, chat rooms are the local deployment's (scripts/local/aws.ts) on the
 * running `npm start`'s IVS Chat stand-in: AWS_ENDPOINT_URL_IVSCHAT when set, else its port as
 * `npm start` chooses it (IVSCHAT_PORT, else PORT + 3), so a local table never leads to a call to
 * IVS Chat on AWS.
 */
const useLocalChatWithLocalTable = () => {
  if (!localTable()) return;
  process.env.AWS_ENDPOINT_URL_IVSCHAT ??= `http://127.0.0.1:${standInPort('ivschat', process.env)}`;
  process.env.STAGE ??= 'local';
  process.env.CHAT_REVIEW_HANDLER_ARN ??= LOCAL_CHAT.reviewHandlerArn;
  process.env.CHAT_LOGGING_CONFIGURATION_ARN ??= LOCAL_CHAT.loggingConfigurationArn;
};

const describeStop = (r: StopStreamResult) =>
  [
    `${r.creatorId}: channel ${r.channelArn}`,
    `  stream keys deleted: ${r.deletedKeys.length}, then StopStream: ${r.stoppedStreamId ? `stream ${r.stoppedStreamId} stopped` : 'the channel was not live'}`,
    `  new stream key ${r.newKeyArn}: the creator reads it from GET /studio/channel`,
    `  recorded: moderation by ${r.moderation.by} at ${r.moderation.at}, reason "${r.moderation.reason}"`,
  ].join('\n');

const describe = (c: OperatedCreator) =>
  `${c.id} (${c.name}): tier ${c.tier}, featured ${c.is_featured}, hot ${c.is_hot}, ${c.suspended_at ? `suspended since ${c.suspended_at}` : 'not suspended'}, version ${c.version}`;

const main = async () => {
  const { command, creatorId, flags, reason, by } = options();
  if (command === 'stop-stream') {
    useLocalIvsWithLocalTable(); // before the first IVS call, which makes the client
    const result = await stopStreamForModeration(creatorId, { by, reason, now: new Date() });
    console.log(`stop-stream: ${describeStop(result)}`);
    return;
  }
  if (command === 'approve-partner') {
    const approval = await approvePartner(creatorId, by, new Date());
    console.log(
      `approve-partner: ${approval.accountId} may subscribe to any creator's public events (by ${by})`,
    );
    return;
  }
  if (command === 'revoke-partner') {
    const r = await revokePartner(creatorId, new Date());
    console.log(
      `revoke-partner: ${r.accountId}: ${r.hadApproval ? 'approval withdrawn' : 'was not a partner'}, ${r.revoked} subscription(s) to other creators revoked`,
    );
    return;
  }
  if (command === 'chat-room') {
    useLocalChatWithLocalTable();
    if (creatorId === 'all') {
      const made = await backfillChatRooms((id, change) => console.log(`  ${id}: ${change}`));
      console.log(`chat-room: ${made} room(s) created`);
    } else console.log(`chat-room: ${creatorId}: ${await ensureChatRoom(creatorId)}`);
    return;
  }
  if (command === 'suspend' || command === 'unsuspend') useLocalChatWithLocalTable();
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
  // IVS errors carry their text in `exceptionMessage` (the SDK's `message` is "UnknownError").
  const { name, message, exceptionMessage } = error as Error & { exceptionMessage?: string };
  console.error(`operator: ${exceptionMessage ? `${name}: ${exceptionMessage}` : message}`);
  process.exitCode = 1;
}
