import { createHash } from 'node:crypto';
import { TABLE } from '../db/table.ts';
import { writeIf } from '../db/transaction.ts';
import { updateOf, withCondition } from '../db/update.ts';
import { normalizeEmail } from './account-repository.ts';

/**
 * Budgets that identity code keeps itself, where the route's rate limit cannot count (the budget
 * is not the caller's IP address or signed-in account): a counter item per window, `count`, TTL
 * after the window.
 * - password-reset emails per address: PK `RESET_LIMIT#<SHA-256 of the normalised address>`, SK
 *   `<UTC day>`. Keyed by the address, not the account, so a request for an address without an
 *   account makes the very same write (the forgot-password answer must not differ by a single
 *   call; docs/accounts.md). Only a hash of the address is stored.
 * - second-factor submissions per account: PK `ACCOUNT#<id>` (the purge removes it), SK
 *   `MFA_TRIES#<window start, epoch seconds>` (docs/accounts.md "Second factor");
 * - the chat passes the sign-out routes queue per account: PK `ACCOUNT#<id>`, SK
 *   `CHAT_PASSES#<window start, epoch seconds>` (docs/accounts.md "Sessions"): counted by the
 *   use case, not the route, so a sign-out is never refused (whoever else holds a session of the
 *   account could spend a route's budget).
 */
const limitKey = (email: string, day: string) => ({
  PK: `RESET_LIMIT#${createHash('sha256').update(normalizeEmail(email)).digest('base64url')}`,
  SK: day,
});

/**
 * Counts one use on the counter `key` if fewer than `limit` were counted: one conditional
 * UpdateItem, so parallel requests can never together pass the limit. False when the budget is
 * spent. `expiresAt` (epoch seconds): the counter's TTL.
 */
const takeAllowance = async (
  key: { PK: string; SK: string },
  limit: number,
  expiresAt: number,
): Promise<boolean> => {
  const outcome = await writeIf({
    Update: {
      Key: key,
      ...withCondition(updateOf({ add: { count: 1 }, set: { [TABLE.ttlAttribute]: expiresAt } }), {
        expression: 'attribute_not_exists(#c0) OR #c0 < :c0',
        names: { '#c0': 'count' },
        values: { ':c0': limit },
      }),
    },
  });
  return outcome.written;
};

/** Counts one reset request for `email` on `now`'s UTC day; false when the day's budget is spent. */
export const takeResetAllowance = async (email: string, limit: number, now: Date): Promise<boolean> => {
  const day = now.toISOString().slice(0, 10);
  const dayStart = Date.parse(`${day}T00:00:00.000Z`) / 1000;
  return takeAllowance(limitKey(email, day), limit, dayStart + 2 * 86_400);
};

/**
 * Counts one use of the account's `budget` in `now`'s fixed window of `windowSeconds`: the seconds
 * until the window ends when its `limit` is spent, else undefined.
 */
const takeAccountTry = async (
  accountId: string,
  budget: 'MFA_TRIES' | 'CHAT_PASSES',
  limit: number,
  windowSeconds: number,
  now: Date,
): Promise<number | undefined> => {
  const seconds = Math.floor(now.getTime() / 1000);
  const start = seconds - (seconds % windowSeconds);
  const key = { PK: `ACCOUNT#${accountId}`, SK: `${budget}#${start}` };
  return (await takeAllowance(key, limit, start + 2 * windowSeconds))
    ? undefined
    : start + windowSeconds - seconds;
};

/** Counts one second-factor submission of `accountId` (`takeAccountTry`). */
export const takeSecondFactorTry = (accountId: string, limit: number, windowSeconds: number, now: Date) =>
  takeAccountTry(accountId, 'MFA_TRIES', limit, windowSeconds, now);

/** Counts one pair of chat passes a sign-out of `accountId` queues (`takeAccountTry`). */
export const takeChatPassTry = (accountId: string, limit: number, windowSeconds: number, now: Date) =>
  takeAccountTry(accountId, 'CHAT_PASSES', limit, windowSeconds, now);
