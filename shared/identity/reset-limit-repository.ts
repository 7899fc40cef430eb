import { createHash } from 'node:crypto';
import { TABLE } from '../db/table.ts';
import { writeIf } from '../db/transaction.ts';
import { updateOf, withCondition } from '../db/update.ts';
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
  const outcome = await writeIf({
    Update: {
      Key: limitKey(email, day),
      ...withCondition(
        updateOf({ add: { count: 1 }, set: { [TABLE.ttlAttribute]: dayStart + 2 * 86_400 } }),
        {
          expression: 'attribute_not_exists(#c0) OR #c0 < :c0',
          names: { '#c0': 'count' },
          values: { ':c0': limit },
        },
      ),
    },
  });
  return outcome.written;
};
