import { randomInt } from 'node:crypto';
import { batchGet } from '../db/batch.ts';
import { db } from '../db/client.ts';
import { UpdateCommand } from '../db/document.ts';
import { tableName } from '../db/table.ts';
import { MIN_REACTION_SHARDS } from '../live/audience-scale.ts';
import { TICK_SECONDS } from './messages.ts';

/**
 * Live reactions, counted per channel per tick (docs/realtime.md "Reactions"): each reaction is
 * one atomic ADD on one of the channel's counter items of its tick, PK
 * `LIVEREACT#<creator>#<tick>#<shard>`, SK `COUNT`, an attribute per emoji (`e:<emoji>`). The
 * shards spread a burst over items (DynamoDB's per-partition ceiling is 1,000 writes a second);
 * how many follows the channel's audience scale (`reactionShardsFor`,
 * shared/live/audience-scale.ts: 10 up to 25,000 viewers, 512 at 1 million), and the writer and
 * the tick derive it from the same creator item. The aggregator reads a tick's shards once, after
 * it ends, and publishes one `reactions` message: the cost of a reaction is one write, whatever
 * the number of viewers. Items expire by TTL a day later.
 */
/** Shards of a channel whose audience scale is unknown to the caller: the fewest there are. */
export const REACTION_SHARDS = MIN_REACTION_SHARDS;
const PREFIX = 'e:';

export const reactionCounterKey = (creatorId: string, tick: number, shard: number) => ({
  PK: `LIVEREACT#${creatorId}#${tick}#${shard}`,
  SK: 'COUNT',
});

/** Counts one `emoji` into `tick`'s totals of `creatorId`'s channel (a random one of its `shards`). */
export const countLiveReaction = async (
  creatorId: string,
  emoji: string,
  tick: number,
  shards = REACTION_SHARDS,
  shard = randomInt(shards),
): Promise<void> => {
  await db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: reactionCounterKey(creatorId, tick, shard),
      UpdateExpression: 'ADD #emoji :one SET expires_at_epoch = :expires',
      ExpressionAttributeNames: { '#emoji': `${PREFIX}${emoji}` },
      ExpressionAttributeValues: { ':one': 1, ':expires': (tick + 1) * TICK_SECONDS + 86_400 },
    }),
  );
};

/** Per-emoji totals of `tick` for each creator, over its `shards` (one BatchGetItem per 10 small channels). */
export const tickReactionTotals = async (
  channels: ReadonlyArray<{ creatorId: string; shards: number }>,
  tick: number,
): Promise<Map<string, Map<string, number>>> => {
  const totals = new Map(channels.map(({ creatorId }) => [creatorId, new Map<string, number>()]));
  const keys = channels.flatMap(({ creatorId, shards }) =>
    Array.from({ length: shards }, (_, shard) => reactionCounterKey(creatorId, tick, shard)),
  );
  for (const item of await batchGet(keys)) {
    // PK `LIVEREACT#<creator>#<tick>#<shard>`: creator ids hold no '#'.
    const counts = totals.get(String(item.PK).split('#')[1] ?? '');
    if (!counts) continue;
    for (const [name, value] of Object.entries(item))
      if (name.startsWith(PREFIX)) {
        const emoji = name.slice(PREFIX.length);
        counts.set(emoji, (counts.get(emoji) ?? 0) + Number(value));
      }
  }
  return totals;
};
