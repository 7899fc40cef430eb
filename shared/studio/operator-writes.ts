import { UpdateCommand } from '../db/document.ts';
import type { CreatorRecord, TierId } from '../catalog/model.ts';
import { db } from '../db/client.ts';
import { queryAll } from '../db/query.ts';
import { recordOf } from '../db/record.ts';
import { tableName } from '../db/table.ts';
import { isConditionalCheckFailed } from '../db/transaction.ts';
import { closeChatRoom, ensureChatRoom } from '../chat/room-writes.ts';

/**
 * An operator's writes on a creator (`npm run operator`, scripts/operator.ts): the editorial
 * fields a creator cannot set (featured, hot, tier) and suspension. Each is one conditional
 * UpdateItem of the creator's source item (`CREATOR#<id>`/`PROFILE`) that adds 1 to its `version`
 * (the projector's views compare versions, docs/projections.md). Reads and the projector hide a
 * creator while `suspended_at` is set, and its shows and episodes while they carry
 * `creator_suspended` (set and removed with the suspension).
 */

/** The creator does not exist: the command reports it and exits 1. */
export class UnknownCreatorError extends Error {
  constructor(readonly creatorId: string) {
    super(`no creator has the id "${creatorId}"`);
    this.name = 'UnknownCreatorError';
  }
}

export interface EditorialFlags {
  is_featured?: boolean;
  is_hot?: boolean;
  tier?: TierId;
}

/** What an operator write leaves on the creator. */
export type OperatedCreator = CreatorRecord & { version: number; suspended_at?: string };

const update = async (
  creatorId: string,
  expression: { update: string; names?: Record<string, string>; values?: Record<string, unknown> },
): Promise<OperatedCreator> => {
  try {
    const result = await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { PK: `CREATOR#${creatorId}`, SK: 'PROFILE' },
        UpdateExpression: `${expression.update} ADD #version :one`,
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeNames: { ...expression.names, '#version': 'version' },
        ExpressionAttributeValues: { ...expression.values, ':one': 1 },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return recordOf<OperatedCreator>(result.Attributes ?? {});
  } catch (error) {
    if (isConditionalCheckFailed(error)) throw new UnknownCreatorError(creatorId);
    throw error;
  }
};

/** Sets any of `is_featured`, `is_hot`, `tier` (at least one). */
export const setEditorialFlags = (creatorId: string, flags: EditorialFlags): Promise<OperatedCreator> => {
  const entries = Object.entries(flags).filter(([, value]) => value !== undefined);
  if (entries.length === 0) throw new RangeError('give at least one of --featured, --hot, --tier');
  return update(creatorId, {
    update: `SET ${entries.map(([name]) => `#${name} = :${name}`).join(', ')}`,
    names: Object.fromEntries(entries.map(([name]) => [`#${name}`, name])),
    values: Object.fromEntries(entries.map(([name, value]) => [`:${name}`, value])),
  });
};

/**
 * Marks (or unmarks) every show and episode of the creator `creator_suspended`, each with
 * `version + 1`, so the projector takes their views down (or puts them back) and reads hide them:
 * a suspended creator's catalogue disappears with it. One Query on GSI1 (the creator's shows with
 * their episodes), then one UpdateItem per item: work bounded by that creator's catalogue. A
 * crash half-way is repaired by running the command again (each write is idempotent but for the
 * version, which only orders changes).
 */
const markCatalogue = async (creatorId: string, suspended: boolean): Promise<void> => {
  const items = await queryAll({
    IndexName: 'GSI1',
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': `CREATOR_SHOWS#${creatorId}` },
    ProjectionExpression: 'PK, SK',
  });
  for (const key of items) {
    await db
      .send(
        new UpdateCommand({
          TableName: tableName(),
          Key: { PK: key.PK, SK: key.SK },
          UpdateExpression: `${suspended ? 'SET creator_suspended = :true' : 'REMOVE creator_suspended'} ADD version :one`,
          // The item may have been deleted since the Query: never recreate it.
          ConditionExpression: 'attribute_exists(PK)',
          ExpressionAttributeValues: suspended ? { ':true': true, ':one': 1 } : { ':one': 1 },
        }),
      )
      .catch((error: Error) => {
        if (!isConditionalCheckFailed(error)) throw error;
      });
  }
};

/**
 * Suspends the creator: `suspended_at` = `now` (ISO), and its shows and episodes are hidden too;
 * its chat room is closed (deleted on IVS Chat: every connection ends; docs/chat.md "Rooms").
 * Suspending again moves the instant.
 */
export const suspendCreator = async (creatorId: string, now: Date): Promise<OperatedCreator> => {
  const creator = await update(creatorId, {
    update: 'SET suspended_at = :at',
    values: { ':at': now.toISOString() },
  });
  await markCatalogue(creatorId, true);
  await closeChatRoom(creatorId);
  return creator;
};

/**
 * Lifts a suspension (removes `suspended_at`; a creator that was not suspended stays as it was,
 * version + 1); a channel gets a new chat room (the old one was deleted; settings, moderators
 * and bans are the creator's and carry over).
 */
export const unsuspendCreator = async (creatorId: string): Promise<OperatedCreator> => {
  const creator = await update(creatorId, { update: 'REMOVE suspended_at' });
  await markCatalogue(creatorId, false);
  await ensureChatRoom(creatorId);
  return creator;
};
