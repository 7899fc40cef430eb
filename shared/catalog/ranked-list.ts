import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { batchGet } from '../db/batch.ts';
import { db } from '../db/client.ts';
import { tableName } from '../db/table.ts';

/**
 * Ranked lists: a materialised view that makes page N of a sorted, filtered catalogue listing
 * one Query over exactly the page's ranks, plus one GetItem for the total. Key design (owned here):
 * PK `RANK#<list>`, SK `R#<rank, 7 digits>` → `id`; PK `RANK#<list>`, SK `META` → `total`.
 * The catalogue loader (and, in production, the ranking job) rewrites a list when rankings change.
 * Cost per request is O(page size) whatever the page number or catalogue size.
 */
const pad = (rank: number) => String(rank).padStart(7, '0');

/** Items that store `ids` (already in rank order) as list `list`. */
export const rankedListItems = (list: string, ids: readonly string[]): Record<string, unknown>[] => [
  { PK: `RANK#${list}`, SK: 'META', total: ids.length },
  ...ids.map((id, index) => ({ PK: `RANK#${list}`, SK: `R#${pad(index + 1)}`, id })),
];

export interface RankedPage {
  ids: string[];
  total: number;
}

/** Page `page` (1-based) of `limit` ids from list `list`, with the list's total. */
export const readRankedPage = async (list: string, page: number, limit: number): Promise<RankedPage> => {
  const first = (page - 1) * limit + 1;
  const [items, meta] = await Promise.all([
    db.send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
        ExpressionAttributeValues: {
          ':pk': `RANK#${list}`,
          ':from': `R#${pad(first)}`,
          ':to': `R#${pad(first + limit - 1)}`,
        },
      }),
    ),
    db.send(new GetCommand({ TableName: tableName(), Key: { PK: `RANK#${list}`, SK: 'META' } })),
  ]);
  return { ids: (items.Items ?? []).map((item) => String(item.id)), total: Number(meta.Item?.total ?? 0) };
};

/** Totals of several lists, in one BatchGetItem. */
export const readRankedTotals = async (lists: readonly string[]): Promise<number[]> => {
  const items = await batchGet(
    lists.map((list) => ({ PK: `RANK#${list}`, SK: 'META' })),
    (item) => String(item.PK),
  );
  const totals = new Map(items.map((item) => [String(item.PK), Number(item.total ?? 0)]));
  return lists.map((list) => totals.get(`RANK#${list}`) ?? 0);
};
