import type { CategoryId, TierId } from '../catalog/model.ts';
import { CATEGORIES, TIERS } from '../catalog/reference.ts';
import { pagination } from '../pagination.ts';
import {
  countCreatorsByCategory,
  listCreators,
  listFeaturedCreators,
  listLiveCreators,
} from './creator-listings.ts';
import type { CreatorSort } from './creator-ranking.ts';
import { searchCreators } from './creator-search.ts';
import { creatorSummary, liveCreatorSummary, searchCreatorSummary } from './creator-views.ts';
import type { ListCreatorsQuery } from './schemas.ts';

/** `GET /creators`: a filtered, sorted page with `filters_applied`. */
export const browseCreators = async (q: ListCreatorsQuery) => {
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
export const featuredCreators = async (page: number, limit: number) => {
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
export const liveCreators = async (page: number, limit: number) => {
  const { creators, total } = await listLiveCreators(page, limit);
  return {
    data: { creators: creators.map(liveCreatorSummary) },
    meta_data: { total_live: total, ...pagination(total, page, limit) },
  };
};

/** `GET /creators/search`: accent/case-insensitive, prefix and one-typo tolerant. */
export const findCreators = async (q: {
  q: string;
  category: CategoryId | 'all';
  tier: TierId | 'all';
  page: number;
  limit: number;
}) => {
  const { creators, total } = await searchCreators(q);
  return {
    data: { creators: creators.map(searchCreatorSummary) },
    meta_data: { query: q.q, ...pagination(total, q.page, q.limit) },
  };
};

/** `GET /creators/tiers`. */
export const creatorTiers = () => TIERS.map(({ id, label }) => ({ id, label }));

/** `GET /categories`: creator categories with their creator counts. */
export const creatorCategories = async () => {
  const counts = await countCreatorsByCategory();
  return CATEGORIES.map(({ id, label, icon }) => ({ id, label, icon, creator_count: counts.get(id) ?? 0 }));
};
