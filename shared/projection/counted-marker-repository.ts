import { TABLE, tableName } from '../db/table.ts';
import type { TransactOperation } from '../db/transaction.ts';

/**
 * Counted markers (the exactly-once counter moves, shared/projection/counters.ts): key design and
 * the one write. Marker: PK `COUNTED#<kind>#<source>`, SK `MARKER` → `at`; its existence says
 * "counted". Sources: `<account>#<creator>` for a subscriber or a follower, the session id for a
 * view.
 */
export type CounterKind = 'subscriber' | 'follower' | 'view';

const markerKey = (kind: CounterKind, source: string) => ({ PK: `COUNTED#${kind}#${source}`, SK: 'MARKER' });

/** The marker of a relationship the seed loader writes already counted (its counts include it). */
export const relationshipMarkerItem = (
  kind: 'subscriber' | 'follower',
  accountId: string,
  creatorId: string,
) => ({
  ...markerKey(kind, `${accountId}#${creatorId}`),
  at: 'seed',
});

/**
 * The transaction operation moving a marker to `counted`: put at `at` on condition it is absent,
 * or deleted on condition it exists. Refused (the transaction cancelled) when it already is.
 */
export const setMarkerOperation = (
  kind: CounterKind,
  source: string,
  counted: boolean,
  at: Date,
): TransactOperation =>
  counted
    ? {
        Put: {
          TableName: tableName(),
          Item: { ...markerKey(kind, source), at: at.toISOString() },
          ConditionExpression: `attribute_not_exists(${TABLE.partitionKey})`,
        },
      }
    : {
        Delete: {
          TableName: tableName(),
          Key: markerKey(kind, source),
          ConditionExpression: `attribute_exists(${TABLE.partitionKey})`,
        },
      };
