import type { CreatorRecord } from '../catalog/model.ts';
import { getCreator } from './creator-repository.ts';
import { ForbiddenError } from '../errors/errors.ts';

/**
 * The 403 of a studio route to an account that is not a creator yet: onboarding's steps 2 and 3
 * (a category, then an audience connected; docs/identity.md "Onboarding") make it one, seconds
 * after the last step (the projector creates the creator).
 */
export const NOT_A_CREATOR_YET =
  'Finish onboarding (choose a category, then connect an audience) to use the studio; the studio opens seconds after the last step';

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
