import type { CreatorRecord } from '../catalog/model.ts';
import { getCreator } from './creator-repository.ts';
import { ForbiddenError } from '../errors/errors.ts';
import { NOT_A_CREATOR_YET } from './messages.ts';

/**
 * The studio's caller as a creator: the public creator their account became when onboarding
 * completed (creator id = account id). An account that has not finished onboarding has no
 * creator yet: 403, it cannot publish.
 */
export const requireStudioCreator = async (accountId: string): Promise<CreatorRecord> => {
  const creator = await getCreator(accountId);
  if (!creator || creator.id !== accountId) throw new ForbiddenError(NOT_A_CREATOR_YET);
  return creator;
};
