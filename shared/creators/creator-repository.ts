import { GetCommand } from '../db/document.ts';
import type { CreatorRecord } from '../catalog/model.ts';
import { batchGet } from '../db/batch.ts';
import { db } from '../db/client.ts';
import { getByIndex, queryAll } from '../db/query.ts';
import { recordOf } from '../db/record.ts';
import { tableName } from '../db/table.ts';
import { NotFoundError } from '../http/errors.ts';

/**
 * Creators: key design and access patterns (see docs/data-model.md).
 * - profile:  PK `CREATOR#<id>`, SK `PROFILE` (the whole CreatorRecord)
 * - by slug:  GSI1PK `CREATOR_SLUG#<slug>`, GSI1SK `CREATOR`
 * - by channel: GSI2PK `CHANNEL#<channel id>`, GSI2SK `CREATOR`
 * - search:   inverted index kind `creator` over name and handle, with cards (shared/creators/creator-search.ts)
 * Listings are ranked lists (shared/creators/creator-ranking.ts, creator-listings.ts); search
 * pages are shared/creators/creator-search.ts.
 */

const key = (id: string) => ({ PK: `CREATOR#${id}`, SK: 'PROFILE' });

/** The stored item of one creator's profile (a source item). */
export const creatorItem = (creator: CreatorRecord): Record<string, unknown> => ({
  ...key(creator.id),
  GSI1PK: `CREATOR_SLUG#${creator.slug}`,
  GSI1SK: 'CREATOR',
  GSI2PK: `CHANNEL#${creator.channel.channel_id}`,
  GSI2SK: 'CREATOR',
  entity: 'creator',
  ...creator,
});

/** The key of a creator's profile item. */
export const creatorKey = key;

/** A stored creator as the public sees it: none while an operator has it suspended. */
const creatorOf = (item: Record<string, unknown> | undefined): CreatorRecord | undefined =>
  item && !item.suspended_at ? recordOf<CreatorRecord>(item) : undefined;

/** Is this a creator id (`cr_…` from the catalogue, `acc_…` for a creator who signed up) rather than a slug? */
export const isCreatorId = (idOrSlug: string) => idOrSlug.startsWith('cr_') || idOrSlug.startsWith('acc_');

/** One creator by id (`cr_…`, `acc_…`) or by slug (the `/creators/<slug>` channel URL form). */
export const getCreator = async (idOrSlug: string): Promise<CreatorRecord | undefined> => {
  if (isCreatorId(idOrSlug)) {
    const result = await db.send(new GetCommand({ TableName: tableName(), Key: key(idOrSlug) }));
    return creatorOf(result.Item);
  }
  return creatorOf(await getByIndex('GSI1', { pk: `CREATOR_SLUG#${idOrSlug.toLowerCase()}`, sk: 'CREATOR' }));
};

/** The creator owning a channel id (`ch_…`): one Query on GSI2. */
export const getCreatorByChannel = async (channelId: string): Promise<CreatorRecord | undefined> =>
  creatorOf(await getByIndex('GSI2', { pk: `CHANNEL#${channelId}`, sk: 'CREATOR' }));

/** The creator or a 404 (spec 7: creator not found). */
export const requireCreator = async (idOrSlug: string): Promise<CreatorRecord> => {
  const creator = await getCreator(idOrSlug);
  if (!creator) throw new NotFoundError('Creator not found');
  return creator;
};

/** Creators by id, in the order given (unknown ids are left out). One BatchGetItem per 100. */
export const getCreators = async (ids: readonly string[]): Promise<CreatorRecord[]> =>
  (await batchGet(ids.map(key))).flatMap((item) => creatorOf(item) ?? []);

/**
 * Every item of a creator's partition (`CREATOR#<id>`: the profile, suspended or not, and what
 * other modules keep there: payouts, earnings), read consistently: a deleted account's purge.
 */
export const creatorPartition = (creatorId: string): Promise<Record<string, unknown>[]> =>
  queryAll({
    KeyConditionExpression: 'PK = :pk',
    ExpressionAttributeValues: { ':pk': key(creatorId).PK },
    ConsistentRead: true,
  });
