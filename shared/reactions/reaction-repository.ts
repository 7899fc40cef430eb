import { randomInt } from 'node:crypto';
import { GetCommand, QueryCommand } from '../db/document.ts';
import { db } from '../db/client.ts';
import { tableName } from '../db/table.ts';
import { transactWriteIf } from '../db/transaction.ts';

/**
 * Reactions: key design (see docs/data-model.md, Reactions).
 * - the reaction:  PK `ACCOUNT#<account>`, SK `REACTION#<type>#<target>#<emoji>` (so "my emojis on
 *   this target" is one Query, and a popular target's records spread over its reactors' partitions)
 * - the counters:  PK `RCOUNT#<type>#<target>#<shard 0..SHARDS-1>`, SK `<emoji>` → `count`.
 *   Each reaction increments one random shard (remembered on the record, so its removal decrements
 *   the same shard); a summary sums the shards with SHARDS parallel Queries. A target absorbs
 *   SHARDS times the write rate of a single item before any item gets hot.
 * Record and counter change in one transaction, so counts never drift from records.
 */
export const COUNTER_SHARDS = 8;

export interface ReactionKey {
  accountId: string;
  targetType: string;
  targetId: string;
  emoji: string;
}

const recordKey = (r: ReactionKey) => ({
  PK: `ACCOUNT#${r.accountId}`,
  SK: `REACTION#${r.targetType}#${r.targetId}#${r.emoji}`,
});
const counterKey = (targetType: string, targetId: string, shard: number, emoji: string) => ({
  PK: `RCOUNT#${targetType}#${targetId}#${shard}`,
  SK: emoji,
});

/** Adds a reaction; false when the account already had it (nothing changes then). */
export const addReaction = async (r: ReactionKey, at: Date): Promise<boolean> => {
  const shard = randomInt(COUNTER_SHARDS);
  return transactWriteIf([
    {
      Put: {
        TableName: tableName(),
        Item: { ...recordKey(r), entity: 'reaction', ...r, shard, created_at: at.toISOString() },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
    {
      Update: {
        TableName: tableName(),
        Key: counterKey(r.targetType, r.targetId, shard, r.emoji),
        UpdateExpression: 'ADD #count :one',
        ExpressionAttributeNames: { '#count': 'count' },
        ExpressionAttributeValues: { ':one': 1 },
      },
    },
  ]);
};

/** Removes the account's own reaction; false when it had none (nothing changes then). */
export const removeReaction = async (r: ReactionKey): Promise<boolean> => {
  const existing = await db.send(
    new GetCommand({ TableName: tableName(), Key: recordKey(r), ConsistentRead: true }),
  );
  const item = existing.Item;
  if (!item) return false;
  return transactWriteIf([
    {
      Delete: {
        TableName: tableName(),
        Key: recordKey(r),
        ConditionExpression: 'attribute_exists(PK) AND #shard = :shard',
        ExpressionAttributeNames: { '#shard': 'shard' },
        ExpressionAttributeValues: { ':shard': item.shard },
      },
    },
    {
      Update: {
        TableName: tableName(),
        Key: counterKey(r.targetType, r.targetId, Number(item.shard), r.emoji),
        UpdateExpression: 'ADD #count :minus',
        ExpressionAttributeNames: { '#count': 'count' },
        ExpressionAttributeValues: { ':minus': -1 },
      },
    },
  ]);
};

/** Per-emoji totals for a target, summed over the counter shards (zero counts left out). */
export const countReactions = async (targetType: string, targetId: string): Promise<Map<string, number>> => {
  const shards = await Promise.all(
    Array.from({ length: COUNTER_SHARDS }, (_, shard) =>
      db.send(
        new QueryCommand({
          TableName: tableName(),
          KeyConditionExpression: 'PK = :pk',
          ExpressionAttributeValues: { ':pk': `RCOUNT#${targetType}#${targetId}#${shard}` },
        }),
      ),
    ),
  );
  const totals = new Map<string, number>();
  for (const result of shards) {
    for (const item of result.Items ?? []) {
      totals.set(String(item.SK), (totals.get(String(item.SK)) ?? 0) + Number(item.count ?? 0));
    }
  }
  for (const [emoji, count] of totals) if (count <= 0) totals.delete(emoji);
  return totals;
};

/** The emojis an account has put on a target. */
export const reactionsOf = async (
  accountId: string,
  targetType: string,
  targetId: string,
): Promise<string[]> => {
  const result = await db.send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: {
        ':pk': `ACCOUNT#${accountId}`,
        ':prefix': `REACTION#${targetType}#${targetId}#`,
      },
    }),
  );
  return (result.Items ?? []).map((item) => String(item.emoji));
};
