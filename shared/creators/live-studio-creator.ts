import type { CreatorRecord } from '../catalog/model.ts';
import { requireLiveAccount } from '../identity/account-repository.ts';
import { requireStudioCreator } from './studio-creator.ts';

/**
 * `requireStudioCreator` for a route that must refuse a deleted account too (its access token
 * outlives the tombstone by up to 15 minutes): the creator and the account read side by side, the
 * creator's 403 before the account's 404 `Account not found`.
 */
export const requireLiveStudioCreator = async (accountId: string): Promise<CreatorRecord> => {
  const [creator, account] = await Promise.allSettled([
    requireStudioCreator(accountId),
    requireLiveAccount(accountId),
  ]);
  if (creator.status === 'rejected') throw creator.reason;
  if (account.status === 'rejected') throw account.reason;
  return creator.value;
};
