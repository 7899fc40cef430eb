import { createHash } from 'node:crypto';
import { UpdateCommand } from '../db/document.ts';
import { db } from '../db/client.ts';
import { tableName } from '../db/table.ts';
import { isConditionalCheckFailed } from '../db/transaction.ts';
import { normalizeEmail } from './account-repository.ts';

/**
 * The daily budget of password-reset emails per address: PK `RESET_LIMIT#<SHA-256 of the
 * normalised address>`, SK `<UTC day>`, `count`, TTL two days later. Keyed by the address, not
 * the account, so a request for an address without an account makes the very same write (the
 * forgot-password answer must not differ by a single call; docs/accounts.md). Only a hash of the
 * address is stored.
 */
const limitKey = (email: string, day: string) => ({
  PK: `RESET_LIMIT#${createHash('sha256').update(normalizeEmail(email)).digest('base64url')}`,
  SK: day,
});

/**
 * Counts one reset request for `email` on `now`'s UTC day if fewer than `limit` were counted:
 * one conditional UpdateItem, so parallel requests can never together pass the limit. False
 * when the day's budget is spent.
 */
export const takeResetAllowance = async (email: string, limit: number, now: Date): Promise<boolean> => {
  const day = now.toISOString().slice(0, 10);
  const dayStart = Date.parse(`${day}T00:00:00.000Z`) / 1000;
  try {
    await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: limitKey(email, day),
        UpdateExpression: 'ADD #count :one SET expires_at_epoch = :expires',
        ConditionExpression: 'attribute_not_exists(#count) OR #count < :limit',
        ExpressionAttributeNames: { '#count': 'count' },
        ExpressionAttributeValues: { ':one': 1, ':limit': limit, ':expires': dayStart + 2 * 86_400 },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionalCheckFailed(error)) return false;
    throw error;
  }
};
