import type { CategoryId } from '../catalog/model.ts';
import { creatorFromAccount, isCreatorAccount } from '../identity/creator-from-account.ts';
import { nextChannelNumber } from '../creators/channel-number-repository.ts';
import { createCreator } from '../creators/creator-repository.ts';
import type { Account } from '../identity/account-repository.ts';

/**
 * Onboarding's projection: an account that completes onboarding with a category becomes a public
 * creator (creator id = account id; shared/identity/creator-from-account.ts). The creator
 * profile is created once (`attribute_not_exists`): a repeated record changes nothing, and later
 * account changes (a new handle, another category step) do not rewrite a profile the creator now
 * edits through the studio. Channel numbers come from an atomic counter
 * (shared/creators/channel-number-repository.ts: a repeated record may skip a number; numbers stay
 * unique).
 */

/** Should this change of an account create its creator? (It became a creator account.) */
export const becameCreator = (before: Account | undefined, after: Account | undefined): boolean =>
  after !== undefined && isCreatorAccount(after) && (before === undefined || !isCreatorAccount(before));

/** Creates the creator an account became, unless it exists. */
export const createCreatorFor = async (account: Account, now: Date): Promise<'created' | 'exists'> => {
  const creator = creatorFromAccount(
    { ...account, category: account.category as CategoryId },
    await nextChannelNumber(),
    now,
  );
  return createCreator(creator);
};
