import { UpdateCommand } from '../db/document.ts';
import type { CreatorRecord } from '../catalog/model.ts';
import { db } from '../db/client.ts';
import { recordOf } from '../db/record.ts';
import { tableName } from '../db/table.ts';
import { channelNameOf, initialsOf } from '../creators/creator-from-account.ts';
import { ForbiddenError } from '../http/errors.ts';
import type { StudioProfile, UpdateProfileBody } from './schedule-schemas.ts';
import { isConditionalCheckFailed } from '../db/transaction.ts';

/**
 * `PATCH /studio/profile`: the creator's own profile fields on their source item
 * (`CREATOR#<id>`/`PROFILE`). The API's `creator_name` is the stored `name`; `initials` follow the
 * name. Each change adds 1 to the item's `version` (docs/projections.md: views built from it
 * compare versions). Editorial fields (tier, flags) are an operator's (shared/studio/operator-writes.ts).
 */

/** A stored creator item with its version, as the studio answers it. */
export const studioProfile = (item: Record<string, unknown>): StudioProfile => {
  const c = recordOf<CreatorRecord & { version?: number }>(item);
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
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':one': 1 };
  const sets: string[] = [];
  const set = (attribute: string, value: unknown) => {
    names[`#${attribute}`] = attribute;
    values[`:${attribute}`] = value;
    sets.push(`#${attribute} = :${attribute}`);
  };
  if (body.creator_name !== undefined) {
    set('name', body.creator_name);
    set('initials', initialsOf(body.creator_name));
    names['#channel'] = 'channel';
    names['#channel_name'] = 'channel_name';
    values[':channel_name'] = channelNameOf(body.creator_name);
    sets.push('#channel.#channel_name = :channel_name');
  }
  if (body.description !== undefined) set('description', body.description);
  if (body.avatar_url !== undefined) set('avatar_url', body.avatar_url);
  if (body.category !== undefined) set('category', body.category);
  try {
    const result = await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { PK: `CREATOR#${creatorId}`, SK: 'PROFILE' },
        UpdateExpression: `SET ${sets.join(', ')} ADD #version :one`,
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeNames: { ...names, '#version': 'version' },
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
      }),
    );
    return studioProfile(result.Attributes ?? {});
  } catch (error) {
    // The creator was read a moment ago (requireStudioCreator); gone now means it was removed.
    if (isConditionalCheckFailed(error))
      throw new ForbiddenError('Finish onboarding (choose a category) to use the studio');
    throw error;
  }
};
