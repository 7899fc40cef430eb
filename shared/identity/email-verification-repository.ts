import { PutCommand, TransactWriteCommand, UpdateCommand } from '../db/document.ts';
import { db } from '../db/client.ts';
import { recordOf } from '../db/record.ts';
import { tableName } from '../db/table.ts';
import { cancellationCodes, isConditionalCheckFailed, type TransactOperation } from '../db/transaction.ts';

/**
 * The pending email-verification code of an account: one item, PK `ACCOUNT#<id>`, SK
 * `EMAIL_VERIFICATION`, holding the address it was sent to, a salt and the SHA-256 of the code
 * (never the code), the attempts spent and the expiry (`expires_at_epoch`, also the table's TTL;
 * reads check it, since DynamoDB deletes expired items late). A new code replaces the item.
 */
export interface VerificationCode {
  account_id: string;
  email: string;
  code_salt: string;
  code_hash: string;
  attempts: number;
  created_at: string;
  /** Epoch seconds. */
  expires_at_epoch: number;
}

const codeKey = (accountId: string) => ({ PK: `ACCOUNT#${accountId}`, SK: 'EMAIL_VERIFICATION' });

/** The item of a code (written by sign-up in the account's creation transaction). */
export const verificationCodeItem = (code: VerificationCode): Record<string, unknown> => ({
  ...codeKey(code.account_id),
  entity: 'email_verification',
  ...code,
});

/** Stores `code`, replacing the account's previous code and its spent attempts (one PutItem). */
export const saveVerificationCode = async (code: VerificationCode): Promise<void> => {
  await db.send(new PutCommand({ TableName: tableName(), Item: verificationCodeItem(code) }));
};

/**
 * Spends one attempt on the account's code before the code is compared: one conditional
 * UpdateItem that succeeds only while the code exists, is unexpired and has attempts left, so
 * parallel guesses can never together exceed `maxAttempts`. The code after the increment, or
 * `undefined` when there is no usable code.
 */
export const spendAttempt = async (
  accountId: string,
  maxAttempts: number,
  now: Date,
): Promise<VerificationCode | undefined> => {
  try {
    const result = await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: codeKey(accountId),
        UpdateExpression: 'ADD attempts :one',
        ConditionExpression: 'attribute_exists(PK) AND attempts < :max AND expires_at_epoch > :now',
        ExpressionAttributeValues: {
          ':one': 1,
          ':max': maxAttempts,
          ':now': Math.floor(now.getTime() / 1000),
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return recordOf<VerificationCode>(result.Attributes ?? {});
  } catch (error) {
    if (isConditionalCheckFailed(error)) return undefined;
    throw error;
  }
};

/**
 * Uses `code` once: one transaction deletes it (condition: still this code, so of two parallel
 * correct submissions only one succeeds) and applies `accountUpdate` (a transaction operation
 * from the account repository). False when either condition failed.
 */
export const consumeVerificationCode = async (
  code: VerificationCode,
  accountUpdate: TransactOperation,
): Promise<boolean> => {
  try {
    await db.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Delete: {
              TableName: tableName(),
              Key: codeKey(code.account_id),
              ConditionExpression: 'code_hash = :hash',
              ExpressionAttributeValues: { ':hash': code.code_hash },
            },
          },
          accountUpdate,
        ],
      }),
    );
    return true;
  } catch (error) {
    if (cancellationCodes(error)) return false;
    throw error;
  }
};
