import { CATEGORIES, TIERS } from '../catalog/reference.ts';
import { pagination } from '../pagination.ts';
import {
  countCreatorsByCategory,
  listCreators,
  listFeaturedCreators,
  listLiveCreators,
} from './creator-listings.ts';
import { searchCreators } from './creator-search.ts';
import { creatorSummary, liveCreatorSummary } from './creator-views.ts';
import type {
  CreatorCategory,
  CreatorList,
  CreatorListMeta,
  ListCreatorsQuery,
  LiveCreatorList,
  LiveCreatorListMeta,
  SearchCreatorList,
  SearchCreatorListMeta,
  SearchCreatorsQuery,
  Tier,
} from './schemas.ts';

/** A page of a list endpoint: `data` and its `meta_data`. */
interface Page<D, M> {
  data: D;
  meta_data: M;
}

/** `GET /creators`: a filtered, sorted page with `filters_applied`. */
export const browseCreators = async (q: ListCreatorsQuery): Promise<Page<CreatorList, CreatorListMeta>> => {
  const { creators, total } = await listCreators(q);
  return {
    data: { creators: creators.map(creatorSummary) },
    meta_data: {
      ...pagination(total, q.page, q.limit),
      filters_applied: { category: q.category, tier: q.tier, sort: q.sort },
    },
  };
};

/** `GET /creators/featured`: same shape as `/creators`. */
export const featuredCreators = async (
  page: number,
  limit: number,
): Promise<Page<CreatorList, CreatorListMeta>> => {
  const { creators, total } = await listFeaturedCreators(page, limit);
  return {
    data: { creators: creators.map(creatorSummary) },
    meta_data: {
      ...pagination(total, page, limit),
      filters_applied: { category: 'all', tier: 'all', sort: 'most_popular' },
    },
  };
};

/**
 * `GET /creators/live`: live creators with their stream. `meta_data` has the standard `total`,
 * `page`, `limit`, `total_pages` (spec 2.1) and keeps `total_live` (spec 4.2) for older clients.
 */
export const liveCreators = async (
  page: number,
  limit: number,
): Promise<Page<LiveCreatorList, LiveCreatorListMeta>> => {
  const { creators, total } = await listLiveCreators(page, limit);
  return {
    data: { creators: creators.map(liveCreatorSummary) },
    meta_data: { total_live: total, ...pagination(total, page, limit) },
  };
};

/** `GET /creators/search`: accent/case-insensitive, prefix and one-typo tolerant. */
export const findCreators = async (
  q: SearchCreatorsQuery,
): Promise<Page<SearchCreatorList, SearchCreatorListMeta>> => {
  const { creators, total, relation } = await searchCreators(q);
  return {
    data: { creators },
    meta_data: { query: q.q, ...pagination(total, q.page, q.limit), total_relation: relation },
  };
};

/** `GET /creators/tiers`. */
export const creatorTiers = (): Tier[] => TIERS.map(({ id, label }) => ({ id, label }));

/** `GET /categories`: creator categories with their creator counts. */
export const creatorCategories = async (): Promise<CreatorCategory[]> => {
  const counts = await countCreatorsByCategory();
  return CATEGORIES.map(({ id, label, icon }) => ({ id, label, icon, creator_count: counts.get(id) ?? 0 }));
};
