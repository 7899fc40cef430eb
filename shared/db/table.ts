import { setting } from '../config.ts';

/**
 * The single table's physical definition: the CDK stack and the local platform both create the
 * table from this object, so they cannot drift. Entity modules (`shared/<domain>/*-repository.ts`)
 * own what goes into these generic attributes.
 */
export const TABLE = {
  partitionKey: 'PK',
  sortKey: 'SK',
  /** Epoch seconds; DynamoDB deletes the item some time after (reads must still check expiry). */
  ttlAttribute: 'expires_at_epoch',
  /**
   * The table's stream (issue 16: projections read every change). Both images, so a projector
   * sees what an item was and what it became; the local platform polls the same stream from
   * DynamoDB Local (scripts/local/table-stream.ts).
   */
  streamViewType: 'NEW_AND_OLD_IMAGES',
  /** Overloaded global secondary indexes; each entity documents what it puts in them. */
  indexes: [
    { name: 'GSI1', partitionKey: 'GSI1PK', sortKey: 'GSI1SK' },
    { name: 'GSI2', partitionKey: 'GSI2PK', sortKey: 'GSI2SK' },
    { name: 'GSI3', partitionKey: 'GSI3PK', sortKey: 'GSI3SK' },
  ],
} as const;

export type IndexName = (typeof TABLE.indexes)[number]['name'];

/** The table name, from the function's environment (set only for rows with DynamoDB access). */
export const tableName = (): string => setting('TABLE_NAME');
