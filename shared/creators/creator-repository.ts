import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { CategoryId, CreatorRecord, TierId } from '../catalog/model.ts';
import { CATEGORY_IDS, TIER_IDS } from '../catalog/model.ts';
import { rankedListItems, readRankedPage, readRankedTotals } from '../catalog/ranked-list.ts';
import { batchGet } from '../db/batch.ts';
import { db } from '../db/client.ts';
import { getByIndex } from '../db/query.ts';
import { recordOf } from '../db/record.ts';
import { tableName } from '../db/table.ts';
import { NotFoundError } from '../http/errors.ts';
import { searchIds, searchItems } from '../search/search-index.ts';

/**
 * Creators: key design and access patterns (see docs/data-model.md).
 * - profile:  PK `CREATOR#<id>`, SK `PROFILE` (the whole CreatorRecord)
 * - by slug:  GSI1PK `CREATOR_SLUG#<slug>`, GSI1SK `CREATOR`
 * - by channel: GSI2PK `CHANNEL#<channel id>`, GSI2SK `CREATOR`
 * - listings: ranked lists `creators#<category|all>#<tier|all>#<sort>`, `creators#featured`,
 *   `creators#live`, `channels` (by channel number) (shared/catalog/ranked-list.ts)
 * - search:   inverted index kind `creator` over name and handle (shared/search/search-index.ts)
 */
export const CREATOR_SORTS = ['most_popular', 'newest', 'trending'] as const;
export type CreatorSort = (typeof CREATOR_SORTS)[number];

const key = (id: string) => ({ PK: `CREATOR#${id}`, SK: 'PROFILE' });
const listName = (category: CategoryId | 'all', tier: TierId | 'all', sort: CreatorSort) =>
  `creators#${category}#${tier}#${sort}`;

/** The stored item of one creator, plus its search index items. */
export const creatorItems = (creator: CreatorRecord): Record<string, unknown>[] => [
  {
    ...key(creator.id),
    GSI1PK: `CREATOR_SLUG#${creator.slug}`,
    GSI1SK: 'CREATOR',
    GSI2PK: `CHANNEL#${creator.channel.channel_id}`,
    GSI2SK: 'CREATOR',
    entity: 'creator',
    ...creator,
  },
  ...searchItems('creator', creator.id, `${creator.name} ${creator.slug.replace(/_/g, ' ')}`, {
    category: creator.category,
    tier: creator.tier,
    subscribers: creator.subscribers,
  }),
];

const bySort: Record<CreatorSort, (a: CreatorRecord, b: CreatorRecord) => number> = {
  most_popular: (a, b) => b.subscribers - a.subscribers || a.id.localeCompare(b.id),
  newest: (a, b) => b.joined_at.localeCompare(a.joined_at) || a.id.localeCompare(b.id),
  trending: (a, b) => b.subscribers_7d - a.subscribers_7d || a.id.localeCompare(b.id),
};

/** Ranked-list items for every filter combination, featured and live lists (the ranking job's output). */
export const creatorListingItems = (creators: readonly CreatorRecord[]): Record<string, unknown>[] => {
  const items: Record<string, unknown>[] = [];
  for (const sort of CREATOR_SORTS) {
    const sorted = [...creators].sort(bySort[sort]);
    for (const category of ['all', ...CATEGORY_IDS] as const) {
      for (const tier of ['all', ...TIER_IDS] as const) {
        const ids = sorted
          .filter(
            (c) => (category === 'all' || c.category === category) && (tier === 'all' || c.tier === tier),
          )
          .map((c) => c.id);
        items.push(...rankedListItems(listName(category, tier, sort), ids));
      }
    }
  }
  const popular = [...creators].sort(bySort.most_popular);
  items.push(
    ...rankedListItems(
      'creators#featured',
      popular.filter((c) => c.is_featured).map((c) => c.id),
    ),
  );
  const live = creators
    .filter((c) => c.live)
    .sort((a, b) => b.watching_now - a.watching_now || a.id.localeCompare(b.id));
  items.push(
    ...rankedListItems(
      'creators#live',
      live.map((c) => c.id),
    ),
  );
  const byNumber = [...creators].sort((a, b) => a.channel.channel_number - b.channel.channel_number);
  items.push(
    ...rankedListItems(
      'channels',
      byNumber.map((c) => c.id),
    ),
  );
  return items;
};

const creatorOf = (item: Record<string, unknown> | undefined): CreatorRecord | undefined =>
  item ? recordOf<CreatorRecord>(item) : undefined;

/** One creator by id (`cr_…`) or by slug (the `/creators/<slug>` channel URL form). */
export const getCreator = async (idOrSlug: string): Promise<CreatorRecord | undefined> => {
  if (idOrSlug.startsWith('cr_')) {
    const result = await db.send(new GetCommand({ TableName: tableName(), Key: key(idOrSlug) }));
    return creatorOf(result.Item);
  }
  return creatorOf(await getByIndex('GSI1', { pk: `CREATOR_SLUG#${idOrSlug.toLowerCase()}`, sk: 'CREATOR' }));
};

/** The creator owning a channel id (`ch_…`): one Query on GSI2. */
export const getCreatorByChannel = async (channelId: string): Promise<CreatorRecord | undefined> =>
  creatorOf(await getByIndex('GSI2', { pk: `CHANNEL#${channelId}`, sk: 'CREATOR' }));

/** A page of channels' creators in channel-number order. */
export const listChannels = (page: number, limit: number): Promise<CreatorPage> =>
  pageOf('channels', page, limit);

/** The creator or a 404 (spec 7: creator not found). */
export const requireCreator = async (idOrSlug: string): Promise<CreatorRecord> => {
  const creator = await getCreator(idOrSlug);
  if (!creator) throw new NotFoundError('Creator not found');
  return creator;
};

/** Creators by id, in the order given (unknown ids are left out). One BatchGetItem per 100. */
export const getCreators = async (ids: readonly string[]): Promise<CreatorRecord[]> =>
  (await batchGet(ids.map(key), (item) => String(item.PK))).map((item) => recordOf<CreatorRecord>(item));

export interface CreatorPage {
  creators: CreatorRecord[];
  total: number;
}

const pageOf = async (list: string, page: number, limit: number): Promise<CreatorPage> => {
  const { ids, total } = await readRankedPage(list, page, limit);
  return { creators: await getCreators(ids), total };
};

/** A page of creators filtered by category and tier, in the given sort order. */
export const listCreators = (q: {
  category: CategoryId | 'all';
  tier: TierId | 'all';
  sort: CreatorSort;
  page: number;
  limit: number;
}): Promise<CreatorPage> => pageOf(listName(q.category, q.tier, q.sort), q.page, q.limit);

/** A page of featured creators, most popular first. */
export const listFeaturedCreators = (page: number, limit: number): Promise<CreatorPage> =>
  pageOf('creators#featured', page, limit);

/** A page of live creators, most watched first. */
export const listLiveCreators = (page: number, limit: number): Promise<CreatorPage> =>
  pageOf('creators#live', page, limit);

/** Number of creators per category (one BatchGetItem over the lists' totals). */
export const countCreatorsByCategory = async (): Promise<Map<CategoryId, number>> => {
  const totals = await readRankedTotals(CATEGORY_IDS.map((c) => listName(c, 'all', 'most_popular')));
  return new Map(CATEGORY_IDS.map((c, i) => [c, totals[i] ?? 0]));
};

/**
 * One page of creators matching a search query, best match first (then most popular), filtered
 * by category and tier on the index facets: reads the index items and only the page's creators.
 */
export const searchCreators = async (q: {
  q: string;
  category: CategoryId | 'all';
  tier: TierId | 'all';
  page: number;
  limit: number;
}): Promise<CreatorPage> => {
  const hits = (await searchIds('creator', q.q))
    .filter(
      (h) =>
        (q.category === 'all' || h.facets.category === q.category) &&
        (q.tier === 'all' || h.facets.tier === q.tier),
    )
    .sort(
      (a, b) =>
        b.score - a.score ||
        Number(b.facets.subscribers ?? 0) - Number(a.facets.subscribers ?? 0) ||
        a.id.localeCompare(b.id),
    );
  const page = hits.slice((q.page - 1) * q.limit, q.page * q.limit);
  return { creators: await getCreators(page.map((h) => h.id)), total: hits.length };
};
