import { UnauthorizedError } from '../errors/errors.ts';
import type { Principal } from './principal.ts';
import { getRefreshFamily, type RefreshFamily } from './refresh-family-repository.ts';

const epoch = (date: Date) => Math.floor(date.getTime() / 1000);

/** Can the family still refresh at `now` (neither revoked nor expired)? */
export const usable = (item: Pick<RefreshFamily, 'revoked' | 'expires_at_epoch'>, now: Date): boolean =>
  item.revoked !== true && Number(item.expires_at_epoch) > epoch(now);

/** Is `family` a sign-in of `accountId` that can still refresh? One consistent read. */
export const isLiveSession = async (accountId: string, family: string, now: Date): Promise<boolean> => {
  const item = await getRefreshFamily(family);
  return item?.account_id === accountId && usable(item, now);
};

/**
 * 401 unless the caller's session (its access token's `sid`) can still refresh. A signed-out
 * session's access token stays valid up to 15 minutes, and with a recent `auth_time` passes the
 * step-up middleware: the routes that change credentials, hand out codes or delete the account
 * refuse it (docs/accounts.md "Sessions"). Tokens without `sid` (minted before it existed) pass.
 */
export const requireLiveSession = async (caller: Principal, now: Date): Promise<void> => {
  if (caller.sessionId !== undefined && !(await isLiveSession(caller.accountId, caller.sessionId, now)))
    throw new UnauthorizedError('This session was signed out: sign in again');
};
