import { DeleteCommand, PutCommand, TransactWriteCommand } from '../db/document.ts';
import { db } from '../db/client.ts';
import { recordOf } from '../db/record.ts';
import { tableName } from '../db/table.ts';
import { cancellationCodes, type TransactOperation, writeIf } from '../db/transaction.ts';
import { updateOf, withCondition } from '../db/update.ts';

/**
 * An account's pending one-time code for one purpose: one item, PK `ACCOUNT#<id>`, SK the purpose
 * (`EMAIL_VERIFICATION`, `PASSWORD_RESET`, `EMAIL_CHANGE`: docs/identity.md, docs/accounts.md),
 * holding the address it was sent to, the keyed MAC of the code (never the code;
 * shared/identity/email-verification.ts), the attempts spent and the expiry (`expires_at_epoch`,
 * also the table's TTL; reads check it, since DynamoDB deletes expired items late). A new code
 * replaces the item of its purpose. Items stored before the MAC (a salt and a SHA-256, until
 * 2026-11-30) are not usable: `spendAttempt` refuses them, so they answer 410 "request a new one".
 */
export type CodePurpose = 'EMAIL_VERIFICATION' | 'PASSWORD_RESET' | 'EMAIL_CHANGE';

export interface VerificationCode {
  account_id: string;
  /** What the code is for; absent on email-verification codes written before there were others. */
  purpose?: CodePurpose;
  email: string;
  /** The code's MAC under the one-time-code KMS key (base64url). */
  code_mac: string;
  attempts: number;
  created_at: string;
  /** Epoch seconds. */
  expires_at_epoch: number;
}

const codeKey = (accountId: string, purpose: CodePurpose = 'EMAIL_VERIFICATION') => ({
  PK: `ACCOUNT#${accountId}`,
  SK: purpose,
});

/** The item of a code (sign-up writes its first one in the account's creation transaction). */
export const verificationCodeItem = (code: VerificationCode): Record<string, unknown> => ({
  ...codeKey(code.account_id, code.purpose),
  entity:
    code.purpose === undefined || code.purpose === 'EMAIL_VERIFICATION'
      ? 'email_verification'
      : 'one_time_code',
  ...code,
});

/** Stores `code`, replacing the account's previous code and its spent attempts (one PutItem). */
export const saveVerificationCode = async (code: VerificationCode): Promise<void> => {
  await db.send(new PutCommand({ TableName: tableName(), Item: verificationCodeItem(code) }));
};

/** Deletes the account's pending code for `purpose`, if any (a password change ends a reset code). */
export const dropVerificationCode = async (accountId: string, purpose: CodePurpose): Promise<void> => {
  await db.send(new DeleteCommand({ TableName: tableName(), Key: codeKey(accountId, purpose) }));
};

/**
 * Spends one attempt on the account's code before the code is compared: one conditional
 * UpdateItem that succeeds only while the code exists (as a MAC), is unexpired and has attempts left, so
 * parallel guesses can never together exceed `maxAttempts`. The code after the increment, or
 * `undefined` when there is no usable code.
 */
export const spendAttempt = async (
  accountId: string,
  maxAttempts: number,
  now: Date,
  purpose: CodePurpose = 'EMAIL_VERIFICATION',
): Promise<VerificationCode | undefined> => {
  const outcome = await writeIf({
    Update: {
      Key: codeKey(accountId, purpose),
      ...withCondition(updateOf({ add: { attempts: 1 } }), {
        expression:
          'attribute_exists(PK) AND attribute_exists(code_mac) AND attempts < :c0 AND expires_at_epoch > :c1',
        values: { ':c0': maxAttempts, ':c1': Math.floor(now.getTime() / 1000) },
      }),
      ReturnValues: 'ALL_NEW',
    },
  });
  return outcome.written ? recordOf<VerificationCode>(outcome.attributes ?? {}) : undefined;
};

/**
 * Uses `code` once: one transaction deletes it (condition: still this code, so of two parallel
 * correct submissions only one succeeds) and applies `accountUpdate` (transaction operations
 * from the account repository). False when any condition failed.
 */
export const consumeVerificationCode = async (
  code: VerificationCode,
  accountUpdate: TransactOperation | readonly TransactOperation[],
): Promise<boolean> => {
  try {
    await db.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Delete: {
              TableName: tableName(),
              Key: codeKey(code.account_id, code.purpose),
              ConditionExpression: 'code_mac = :mac',
              ExpressionAttributeValues: { ':mac': code.code_mac },
            },
          },
          ...(Array.isArray(accountUpdate) ? accountUpdate : [accountUpdate]),
        ],
      }),
    );
    return true;
  } catch (error) {
    if (cancellationCodes(error)) return false;
    throw error;
  }
};
