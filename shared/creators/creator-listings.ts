import type { CategoryId, CreatorRecord, TierId } from '../catalog/model.ts';
import { CATEGORY_IDS } from '../catalog/model.ts';
import { ascValueOf, readRankedEntries, readRankedPage, readRankedTotals } from '../catalog/ranked-list.ts';
import { getCreators } from './creator-repository.ts';
import { CREATOR_LISTS, creatorListName } from './creator-ranking.ts';
import type { CreatorSort } from '../catalog/model.ts';

/**
 * Creator listings: pages of the ranked lists (shared/creators/creator-ranking.ts), then the
 * page's creators from the repository.
 */
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
}): Promise<CreatorPage> => pageOf(creatorListName(q.category, q.tier, q.sort), q.page, q.limit);

/** A page of featured creators, most popular first. */
export const listFeaturedCreators = (page: number, limit: number): Promise<CreatorPage> =>
  pageOf(CREATOR_LISTS.featured, page, limit);

/** A page of live creators, most watched first. */
export const listLiveCreators = (page: number, limit: number): Promise<CreatorPage> =>
  pageOf(CREATOR_LISTS.live, page, limit);

/**
 * A page of channels in channel-number order: each one's creator id and channel number (from the
 * list's rank key), with the total; one round trip, so the guide reads the creators and the
 * programs of that number range at once (issue 41).
 */
export const listChannelNumbers = async (
  page: number,
  limit: number,
): Promise<{ channels: Array<{ creatorId: string; channelNumber: number }>; total: number }> => {
  const { entries, total } = await readRankedEntries(CREATOR_LISTS.channels, page, limit);
  return { channels: entries.map((e) => ({ creatorId: e.id, channelNumber: ascValueOf(e.key) })), total };
};

/** Number of creators per category (one BatchGetItem over the lists' totals). */
export const countCreatorsByCategory = async (): Promise<Map<CategoryId, number>> => {
  const totals = await readRankedTotals(CATEGORY_IDS.map((c) => creatorListName(c, 'all', 'most_popular')));
  return new Map(CATEGORY_IDS.map((c, i) => [c, totals[i] ?? 0]));
};
