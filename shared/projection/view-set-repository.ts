import { db } from '../db/client.ts';
import { GetCommand } from '../db/document.ts';
import { type PrimaryKey, keyValues } from '../db/key.ts';
import { TABLE, tableName } from '../db/table.ts';
import type { TransactOperation } from '../db/transaction.ts';

/**
 * View sets (the projector's record of what it built from each source item; the rule is
 * shared/projection/view-set.ts): key design, the one read and the one write.
 * Item: PK `VIEWSET#<source PK>#<source SK>`, SK `VIEWSET` → `source_version` (the version of the
 * source its views were built from) and `views`: view item key (`keyString`) → a hash of its
 * content. A deleted source's view set stays, empty, until its TTL.
 */

/** A view set as stored. */
export interface ViewSet {
  source_version: number;
  /** View item key (shared/db/key.ts `keyString`) → content hash. */
  views: Record<string, string>;
}

const PREFIX = 'VIEWSET#';
const viewSetKey = (source: PrimaryKey) => {
  const [pk, sk] = keyValues(source);
  return { PK: `${PREFIX}${pk}#${sk}`, SK: 'VIEWSET' };
};

/**
 * The source an episode's view set is keyed by: its id, not its item's key. The item's key is its
 * position (season and episode), and moving an episode deletes one item and puts another in
 * one transaction: keyed by position, the two view sets would claim the same view items, and the
 * old item's deletion, projected after the new item's put, would delete the moved episode's views.
 */
export const episodeViewSource = (episodeId: string) => ({ PK: 'EPISODE', SK: episodeId });

/** Is this item a view set? */
export const isViewSetItem = (item: Record<string, unknown>): boolean =>
  String(item[TABLE.partitionKey]).startsWith(PREFIX);

/** The view set item of `source` (the seed loader and the rebuild write these whole). */
export const viewSetItem = (source: PrimaryKey, viewSet: ViewSet): Record<string, unknown> => ({
  ...viewSetKey(source),
  ...viewSet,
});

/** The view set of `source`, read consistently, if any. */
export const getViewSet = async (source: PrimaryKey): Promise<ViewSet | undefined> => {
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName(), Key: viewSetKey(source), ConsistentRead: true }),
  );
  return Item
    ? {
        source_version: Number(Item.source_version ?? 0),
        views: (Item.views ?? {}) as Record<string, string>,
      }
    : undefined;
};

/**
 * The transaction operation making `source`'s view set `next`, on condition it is still the one
 * read: at `seen` (its `source_version` as stored), or absent when `seen` is undefined. With
 * `expiresAt` (epoch seconds) the view set expires then (a deleted source's).
 */
export const moveViewSetOperation = (
  source: PrimaryKey,
  next: ViewSet & { expiresAt?: number },
  seen: ViewSet | undefined,
): TransactOperation => {
  const { expiresAt, ...viewSet } = next;
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...viewSetItem(source, viewSet),
        ...(expiresAt === undefined ? {} : { [TABLE.ttlAttribute]: expiresAt }),
      },
      ...(seen === undefined
        ? { ConditionExpression: `attribute_not_exists(${TABLE.partitionKey})` }
        : {
            ConditionExpression: 'source_version = :seen',
            ExpressionAttributeValues: { ':seen': seen.source_version },
          }),
    },
  };
};
