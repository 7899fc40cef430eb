import { UpdateCommand } from '../db/document.ts';
import type { CategoryId } from '../catalog/model.ts';
import { creatorFromAccount, isCreatorAccount } from '../identity/creator-from-account.ts';
import { createCreator } from '../creators/creator-repository.ts';
import { db } from '../db/client.ts';
import { tableName } from '../db/table.ts';
import { updateOf } from '../db/update.ts';
import type { Account } from '../identity/account-repository.ts';

/**
 * Onboarding's projection: an account that completes onboarding with a category becomes a public
 * creator (creator id = account id; shared/identity/creator-from-account.ts). The creator
 * profile is created once (`attribute_not_exists`): a repeated record changes nothing, and later
 * account changes (a new handle, another category step) do not rewrite a profile the creator now
 * edits through the studio. Channel numbers come from an atomic counter (a repeated record may
 * skip a number; numbers stay unique).
 * Key design (owned here): PK `COUNTER#channel_number`, SK `COUNTER` → `value`.
 */
const counterKey = { PK: 'COUNTER#channel_number', SK: 'COUNTER' };

/** The counter item holding the highest channel number given out (the seed loader writes it). */
export const channelCounterItem = (value: number) => ({ ...counterKey, value });

const nextChannelNumber = async (): Promise<number> => {
  const result = await db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: counterKey,
      ...updateOf({ add: { value: 1 } }),
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Number(result.Attributes?.value);
};

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
