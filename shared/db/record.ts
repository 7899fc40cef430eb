import { TABLE } from './table.ts';

/**
 * Attributes of an item that are storage, not data: the table's and every index's key
 * attributes and the `entity` tag every repository writes.
 */
const STORAGE_ATTRIBUTES = [
  TABLE.partitionKey,
  TABLE.sortKey,
  ...TABLE.indexes.flatMap((index) => [index.partitionKey, index.sortKey]),
  'entity',
];

/**
 * The record an item stores: the item without its key attributes and entity tag (and without the
 * TTL attribute when `withoutTtl`, for records that keep their expiry in a field of their own).
 */
export const recordOf = <T>(item: Record<string, unknown>, options: { withoutTtl?: boolean } = {}): T => {
  const record = { ...item };
  for (const name of STORAGE_ATTRIBUTES) delete record[name];
  if (options.withoutTtl) delete record[TABLE.ttlAttribute];
  return record as T;
};
