import { NOT_A_CREATOR_YET } from '../creators/messages.ts';
import { type StoredCreator, updateCreatorProfile } from '../creators/creator-repository.ts';
import { channelNameOf, initialsOf } from '../identity/creator-from-account.ts';
import { ForbiddenError } from '../errors/errors.ts';
import type { StudioProfile, UpdateProfileBody } from './schedule-schemas.ts';

/**
 * `PATCH /studio/profile`: the creator's own profile fields on their source item
 * (`updateCreatorProfile`, shared/creators/creator-repository.ts). The API's `creator_name` is the stored `name`; `initials` follow the
 * name. Each change adds 1 to the item's `version` (docs/projections.md: views built from it
 * compare versions). Editorial fields (tier, flags) are an operator's (shared/studio/operator-writes.ts).
 */

/** A stored creator with its version, as the studio answers it. */
const studioProfile = (c: StoredCreator): StudioProfile => {
  return {
    creator_id: c.id,
    creator_name: c.name,
    handle: c.slug,
    initials: c.initials,
    avatar_color: c.avatar_color,
    avatar_url: c.avatar_url,
    description: c.description,
    category: c.category,
    tier: c.tier,
    is_verified: c.is_verified,
    is_featured: c.is_featured,
    is_hot: c.is_hot,
    channel_id: c.channel.channel_id,
    version: typeof c.version === 'number' ? c.version : 0,
  };
};

/** Sets the given fields on the creator's profile item, adds 1 to its version; answers the profile after. */
export const updateProfile = async (creatorId: string, body: UpdateProfileBody): Promise<StudioProfile> => {
  const named = body.creator_name;
  const creator = await updateCreatorProfile(creatorId, {
    ...(named !== undefined
      ? { name: named, initials: initialsOf(named), channelName: channelNameOf(named) }
      : {}),
    description: body.description,
    avatarUrl: body.avatar_url,
    category: body.category,
  });
  // The creator was read a moment ago (requireStudioCreator); gone now means it was removed.
  if (!creator) throw new ForbiddenError(NOT_A_CREATOR_YET);
  return studioProfile(creator);
};
