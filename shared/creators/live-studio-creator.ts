import type { CreatorRecord } from '../catalog/model.ts';
import { requireLiveAccount } from '../identity/account-repository.ts';
import { requireStudioCreator } from './studio-creator.ts';

/**
 * `requireStudioCreator` for a route that must refuse a deleted account too (its access token
 * outlives the tombstone by up to 15 minutes): the creator and the account read side by side, the
 * account's 404 `Account not found` before the creator's 403 (a deleted creator is hidden at once,
 * as a suspended one is, so its creator read alone would answer 403 "not a creator").
 */
export const requireLiveStudioCreator = async (accountId: string): Promise<CreatorRecord> => {
  const [creator, account] = await Promise.allSettled([
    requireStudioCreator(accountId),
    requireLiveAccount(accountId),
  ]);
  if (account.status === 'rejected') throw account.reason;
  if (creator.status === 'rejected') throw creator.reason;
  return creator.value;
};
