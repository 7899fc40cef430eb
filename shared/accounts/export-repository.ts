import { GetCommand } from '../db/document.ts';
import { db } from '../db/client.ts';
import { recordOf } from '../db/record.ts';
import { tableName } from '../db/table.ts';
import { writeIf } from '../db/transaction.ts';
import { ConflictError } from '../errors/errors.ts';
import type { ExportStatus } from './export-model.ts';

/**
 * An account's data export (docs/accounts.md "Export"): one item per account, PK
 * `ACCOUNT#<account>`, SK `EXPORT` (in the account's partition, so the deletion takes it too).
 * `pending` from the request until the worker has written the document to the exports bucket
 * (`ready`, with its object key) or given up (`failed`). A new export is accepted only when none
 * is pending: the put's condition, no read first. A pending export older than
 * STALE_EXPORT_MINUTES (its worker died past every retry) may be replaced.
 */

export interface ExportRecord {
  export_id: string;
  account_id: string;
  status: ExportStatus;
  requested_at: string;
  /** When the document was written (ready). */
  ready_at?: string;
  /** The document's object key in the exports bucket (ready); a random id, never the account's. */
  object_key?: string;
}

/** A pending export this old may be replaced by a new request. */
export const STALE_EXPORT_MINUTES = 60;

const key = (accountId: string) => ({ PK: `ACCOUNT#${accountId}`, SK: 'EXPORT' });

/** Records a new pending export, unless one is pending (409). */
export const startExport = async (record: ExportRecord, now: Date): Promise<void> => {
  const stale = new Date(now.getTime() - STALE_EXPORT_MINUTES * 60_000).toISOString();
  const { written } = await writeIf({
    Put: {
      Item: { ...key(record.account_id), entity: 'account_export', ...record },
      ConditionExpression: 'attribute_not_exists(PK) OR #status <> :pending OR requested_at < :stale',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':pending': 'pending', ':stale': stale },
    },
  });
  if (!written) throw new ConflictError('An export of this account is being built');
};

/** The account's latest export, if any. */
export const getExport = async (accountId: string): Promise<ExportRecord | undefined> => {
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName(), Key: key(accountId), ConsistentRead: true }),
  );
  return Item ? recordOf<ExportRecord>(Item) : undefined;
};

/** Removes a pending export whose job could not be queued (the request failed; it may be retried). */
export const dropPendingExport = async (accountId: string, exportId: string): Promise<void> => {
  // Another export (or none) pending: nothing to drop.
  await writeIf({
    Delete: {
      Key: key(accountId),
      ConditionExpression: 'export_id = :id AND #status = :pending',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':id': exportId, ':pending': 'pending' },
    },
  });
};

/**
 * Ends a pending export: `ready` with its object, or `failed`. False when that export is no
 * longer the pending one (replaced, or the account deleted): the worker's result is dropped.
 */
export const finishExport = async (
  accountId: string,
  exportId: string,
  result: { status: 'ready'; object_key: string; at: Date } | { status: 'failed'; at: Date },
): Promise<boolean> => {
  const { written } = await writeIf({
    Update: {
      Key: key(accountId),
      UpdateExpression:
        result.status === 'ready'
          ? 'SET #status = :status, ready_at = :at, object_key = :object'
          : 'SET #status = :status, ready_at = :at',
      ConditionExpression: 'export_id = :id AND #status = :pending',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':status': result.status,
        ':at': result.at.toISOString(),
        ':id': exportId,
        ':pending': 'pending',
        ...(result.status === 'ready' ? { ':object': result.object_key } : {}),
      },
    },
  });
  return written;
};
