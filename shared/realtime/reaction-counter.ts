import { randomInt } from 'node:crypto';
import { batchGet } from '../db/batch.ts';
import { db } from '../db/client.ts';
import { UpdateCommand } from '../db/document.ts';
import { tableName } from '../db/table.ts';
import { TICK_SECONDS } from './messages.ts';

/**
 * Live reactions, counted per channel per tick (docs/realtime.md "Reactions"): each reaction is
 * one atomic ADD on one of REACTION_SHARDS counter items of its tick, PK
 * `LIVEREACT#<creator>#<tick>#<shard>`, SK `COUNT`, an attribute per emoji (`e:<emoji>`). Ten
 * shards spread a burst over ten items (DynamoDB's per-item ceiling is ~1,000 writes a second:
 * 10,000 reactions a second on one channel). The aggregator reads a tick's shards once, after it
 * ends, and publishes one `reactions` message: the cost of a reaction is one write, whatever the
 * number of viewers. Items expire by TTL a day later.
 */
export const REACTION_SHARDS = 10;
const PREFIX = 'e:';

export const reactionCounterKey = (creatorId: string, tick: number, shard: number) => ({
  PK: `LIVEREACT#${creatorId}#${tick}#${shard}`,
  SK: 'COUNT',
});

/** Counts one `emoji` into `tick`'s totals of `creatorId`'s channel (a random shard). */
export const countLiveReaction = async (
  creatorId: string,
  emoji: string,
  tick: number,
  shard = randomInt(REACTION_SHARDS),
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

/** Per-emoji totals of `tick` for each creator (one BatchGetItem per 10 channels). */
export const tickReactionTotals = async (
  creatorIds: readonly string[],
  tick: number,
): Promise<Map<string, Map<string, number>>> => {
  const totals = new Map(creatorIds.map((id) => [id, new Map<string, number>()]));
  const keys = creatorIds.flatMap((id) =>
    Array.from({ length: REACTION_SHARDS }, (_, shard) => reactionCounterKey(id, tick, shard)),
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
