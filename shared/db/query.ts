import { QueryCommand, type QueryCommandInput } from './document.ts';
import { db } from './client.ts';
import { type IndexName, TABLE, tableName } from './table.ts';

type Item = Record<string, unknown>;

/** A Query on the table (or one of its indexes); `TableName` is filled in. */
export type QueryInput = Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>;

/**
 * Every item a Query returns, following `LastEvaluatedKey` page after page. With `cap`, stops
 * after the first page that brings the count to `cap` or more (callers bound item collections
 * that can grow, such as search index partitions).
 */
export const queryAll = async (input: QueryInput, cap = Number.POSITIVE_INFINITY): Promise<Item[]> => {
  const items: Item[] = [];
  let start: Item | undefined;
  do {
    const result = await db.send(
      new QueryCommand({ TableName: tableName(), ...input, ExclusiveStartKey: start }),
    );
    items.push(...(result.Items ?? []));
    start = result.LastEvaluatedKey;
  } while (start && items.length < cap);
  return items;
};

/** The first item of a Query (one call with `Limit: 1`), if any. */
export const queryFirst = async (input: Omit<QueryInput, 'Limit'>): Promise<Item | undefined> => {
  const result = await db.send(new QueryCommand({ TableName: tableName(), ...input, Limit: 1 }));
  return result.Items?.[0];
};

/**
 * The one item an index maps an exact key to (a slug, a channel id, an episode id): a Limit-1
 * Query on `index` with both its key attributes, optionally projected.
 */
export const getByIndex = (
  index: IndexName,
  key: { pk: string; sk: string },
  projection?: string,
): Promise<Item | undefined> => {
  const { partitionKey, sortKey } = TABLE.indexes.find((i) => i.name === index)!;
  return queryFirst({
    IndexName: index,
    KeyConditionExpression: `${partitionKey} = :pk AND ${sortKey} = :sk`,
    ExpressionAttributeValues: { ':pk': key.pk, ':sk': key.sk },
    ...(projection ? { ProjectionExpression: projection } : {}),
  });
};
