import { batchGet } from '../db/batch.ts';
import { db } from '../db/client.ts';
import { UpdateCommand } from '../db/document.ts';
import { TABLE, tableName } from '../db/table.ts';
import { updateOf } from '../db/update.ts';

/**
 * Live reaction counters: key design and access patterns (the counting rule, ticks and shards are
 * shared/realtime/reaction-counter.ts).
 * Counter: PK `LIVEREACT#<creator>#<tick>#<shard>`, SK `COUNT` → one count per emoji, attribute
 * `e:<emoji>` (each an atomic ADD); expires by TTL. Creator ids hold no '#'.
 */
const EMOJI = 'e:';

const counterKey = (creatorId: string, tick: number, shard: number) => ({
  PK: `LIVEREACT#${creatorId}#${tick}#${shard}`,
  SK: 'COUNT',
});

/** Adds one `emoji` to one shard of a channel's tick: one UpdateItem, the shard expiring at `expiresAt` (epoch seconds). */
export const addLiveReaction = async (
  creatorId: string,
  at: { tick: number; shard: number; emoji: string; expiresAt: number },
): Promise<void> => {
  await db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: counterKey(creatorId, at.tick, at.shard),
      ...updateOf({ add: { [`${EMOJI}${at.emoji}`]: 1 }, set: { [TABLE.ttlAttribute]: at.expiresAt } }),
    }),
  );
};

/**
 * Per-emoji counts of each of `ticks` for each channel, summed over its `shards`: creator → tick →
 * emoji → count (BatchGetItem over every shard, eventually consistent). Every channel and tick
 * asked for is in the answer, with no emojis when none were counted.
 */
export const readLiveReactions = async (
  channels: ReadonlyArray<{ creatorId: string; shards: number }>,
  ticks: readonly number[],
): Promise<Map<string, Map<number, Map<string, number>>>> => {
  const counts = new Map(
    channels.map(({ creatorId }) => [
      creatorId,
      new Map(ticks.map((tick) => [tick, new Map<string, number>()])),
    ]),
  );
  const keys = channels.flatMap(({ creatorId, shards }) =>
    ticks.flatMap((tick) => Array.from({ length: shards }, (_, shard) => counterKey(creatorId, tick, shard))),
  );
  for (const item of await batchGet(keys)) {
    const [, creatorId = '', tick = ''] = String(item.PK).split('#');
    const tickCounts = counts.get(creatorId)?.get(Number(tick));
    if (!tickCounts) continue;
    for (const [name, value] of Object.entries(item))
      if (name.startsWith(EMOJI)) {
        const emoji = name.slice(EMOJI.length);
        tickCounts.set(emoji, (tickCounts.get(emoji) ?? 0) + Number(value));
      }
  }
  return counts;
};
