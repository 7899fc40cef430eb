import { backoff } from '../backoff.ts';
import { type AttributeValue, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import type * as doc from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import {
  DeleteCommand,
  PutCommand,
  TransactWriteCommand,
  type TransactWriteCommandInput,
  UpdateCommand,
} from './document.ts';
import { db } from './client.ts';
import { tableName } from './table.ts';

/** One operation of a TransactWriteItems call. */
export type TransactOperation = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/**
 * The cancellation reason codes of a cancelled TransactWriteItems, one per operation in the
 * order sent (`ConditionalCheckFailed`, `TransactionConflict`, `None`...); `undefined` when
 * `error` is not a transaction cancellation.
 */
export const cancellationCodes = (error: unknown): Array<string | undefined> | undefined =>
  error instanceof TransactionCanceledException
    ? (error.CancellationReasons ?? []).map((reason) => reason.Code)
    : undefined;

/**
 * Was a single-item write (PutItem, UpdateItem, DeleteItem) refused because its condition failed?
 * By name, not `instanceof`: the local platform's client and a bundle's own copy of the SDK
 * would be different classes. (A transaction reports it as `isConditionFailure` below.)
 */
export const isConditionalCheckFailed = (error: unknown): boolean =>
  (error as { name?: unknown } | null)?.name === 'ConditionalCheckFailedException';

/** Was a transaction cancelled because a condition of any of its operations failed? */
export const isConditionFailure = (error: unknown): boolean =>
  cancellationCodes(error)?.includes('ConditionalCheckFailed') ?? false;

/**
 * One TransactWriteItems call: true when it was written, false (nothing written) when a condition
 * of any operation failed. Any other error, a conflict included, is thrown.
 */
export const transactWriteIf = async (operations: TransactOperation[]): Promise<boolean> => {
  try {
    await db.send(new TransactWriteCommand({ TransactItems: operations }));
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
};

/**
 * What a transaction did: written, or cancelled (nothing written) with `failed`, the positions
 * of the operations whose condition failed (empty when it only lost a race with another
 * transaction, `TransactionConflict`). Entities map the positions to their answers (a duplicate,
 * a stale event, "read again").
 */
export type TransactOutcome = { written: true } | { written: false; failed: number[] };

/**
 * One TransactWriteItems call whose cancellation is an outcome, never an exception: any
 * cancellation (failed conditions, a conflict) is `{ written: false, failed }`, for callers that
 * read again and retry; any other error is thrown.
 */
export const transact = async (operations: TransactOperation[]): Promise<TransactOutcome> => {
  try {
    await db.send(new TransactWriteCommand({ TransactItems: operations }));
    return { written: true };
  } catch (error) {
    const codes = cancellationCodes(error);
    if (!codes) throw error;
    return {
      written: false,
      failed: codes.flatMap((code, i) => (code === 'ConditionalCheckFailed' ? [i] : [])),
    };
  }
};

/**
 * `transact`, retrying a transaction cancelled only by a race (no condition failed:
 * `TransactionConflict`, which DynamoDB answers a transaction that meets another in flight on one
 * of its items, or a throttled item) up to 5 times with jittered backoff; the last outcome. For
 * writers whose conditions decide the answer (uniqueness markers): the race's loser retries and
 * then meets the winner's item as a failed condition, instead of an error.
 */
export const transactRetryingRaces = async (operations: TransactOperation[]): Promise<TransactOutcome> => {
  for (let attempt = 0; ; attempt++) {
    const outcome = await transact(operations);
    if (outcome.written || outcome.failed.length > 0 || attempt >= 5) return outcome;
    await backoff(attempt + 1, 20);
  }
};

/**
 * `transactRetryingRaces` for every writer of a shared item (a counter, a month's totals): true
 * when written, false when a condition failed, an error when it lost its race six times.
 */
export const transactRetryingConflicts = async (operations: TransactOperation[]): Promise<boolean> => {
  const outcome = await transactRetryingRaces(operations);
  if (outcome.written) return true;
  if (outcome.failed.length > 0) return false;
  throw new Error('transaction cancelled by concurrent writes six times');
};

type Untabled<T> = Omit<T, 'TableName'>;

/** One conditional single-item write (`TableName` is filled in). */
export type SingleWrite =
  | { Put: Untabled<doc.PutCommandInput> }
  | { Update: Untabled<doc.UpdateCommandInput> }
  | { Delete: Untabled<doc.DeleteCommandInput> };

/**
 * What a conditional write did: `written` with the item's attributes when `ReturnValues` asked
 * for them, or refused because its condition failed (nothing written), with the item as it was
 * when `ReturnValuesOnConditionCheckFailure: 'ALL_OLD'` asked for it (and it existed).
 */
export type WriteOutcome =
  | { written: true; attributes: Record<string, unknown> | undefined }
  | { written: false; item?: Record<string, unknown> };

/**
 * The one conditional single-item write (PutItem, UpdateItem or DeleteItem): a failed condition
 * is an outcome, `{ written: false }`, never an exception; any other error is thrown. Entity
 * modules map the outcome to their own answer (a boolean, `'exists'`, a typed domain error).
 */
export const writeIf = async (write: SingleWrite): Promise<WriteOutcome> => {
  const TableName = tableName();
  try {
    const result =
      'Put' in write
        ? await db.send(new PutCommand({ TableName, ...write.Put }))
        : 'Update' in write
          ? await db.send(new UpdateCommand({ TableName, ...write.Update }))
          : await db.send(new DeleteCommand({ TableName, ...write.Delete }));
    return { written: true, attributes: result.Attributes };
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error;
    // The error carries the old item marshalled (as lib-dynamodb leaves it: aws/aws-sdk-js-v3#6723).
    const old = (error as { Item?: Record<string, AttributeValue> }).Item;
    return old ? { written: false, item: unmarshall(old) } : { written: false };
  }
};

/** `writeIf` for callers that need only whether it was written. */
export const writtenIf = async (write: SingleWrite): Promise<boolean> => (await writeIf(write)).written;

/**
 * Writes `item` unless an item with its key exists: false when one did (the first writer wins;
 * nothing is overwritten). The conditional put every "once" record is (a processed event, a
 * first link, a first customer).
 */
export const putIfAbsent = (item: Record<string, unknown>): Promise<boolean> =>
  writtenIf({ Put: { Item: item, ConditionExpression: 'attribute_not_exists(PK)' } });
