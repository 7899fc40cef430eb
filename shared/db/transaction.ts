import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';

/**
 * The cancellation reason codes of a cancelled TransactWriteItems, one per operation in the
 * order sent (`ConditionalCheckFailed`, `TransactionConflict`, `None`...); `undefined` when
 * `error` is not a transaction cancellation.
 */
export const cancellationCodes = (error: unknown): Array<string | undefined> | undefined =>
  error instanceof TransactionCanceledException
    ? (error.CancellationReasons ?? []).map((reason) => reason.Code)
    : undefined;

/** Was a transaction cancelled because a condition of any of its operations failed? */
export const isConditionFailure = (error: unknown): boolean =>
  cancellationCodes(error)?.includes('ConditionalCheckFailed') ?? false;
