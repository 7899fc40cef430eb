import { TABLE } from './table.ts';

/** The primary key of an item: its partition and sort key attributes, nothing else. */
export type PrimaryKey = Record<string, unknown>;

/**
 * An item's (or a stream record's image's) primary key, for plumbing that handles items of any
 * entity by key (batch deletes, a purge, a view set's list of view items): the key attributes come
 * from the table's definition, never from a caller.
 */
export const primaryKey = (item: Record<string, unknown>): PrimaryKey => ({
  [TABLE.partitionKey]: item[TABLE.partitionKey],
  [TABLE.sortKey]: item[TABLE.sortKey],
});

/** The partition and sort key values of an item, as strings. */
export const keyValues = (item: Record<string, unknown>): [partition: string, sort: string] => [
  String(item[TABLE.partitionKey]),
  String(item[TABLE.sortKey]),
];

const SEP = '|';

/** An item's primary key as one string (`<partition>|<sort>`), to match items with keys. */
export const keyString = (item: Record<string, unknown>): string => keyValues(item).join(SEP);

/** The primary key a `keyString` names (sort keys may hold the separator; partition keys do not). */
export const keyOfString = (key: string): PrimaryKey => {
  const at = key.indexOf(SEP);
  return { [TABLE.partitionKey]: key.slice(0, at), [TABLE.sortKey]: key.slice(at + 1) };
};
