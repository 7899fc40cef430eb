import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type TransactWriteCommandInput } from './document.ts';
import { db } from './client.ts';

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
