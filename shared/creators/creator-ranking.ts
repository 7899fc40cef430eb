import { CREATOR_SORTS, type CreatorSort } from '../catalog/model.ts';
import type { CategoryId, CreatorRecord, TierId } from '../catalog/model.ts';
import { CATEGORY_IDS, TIER_IDS } from '../catalog/model.ts';
import { rankedListItems } from '../catalog/ranked-list.ts';

/**
 * How creators are ranked: the sort orders of creator listings and the ranked lists they produce
 * (shared/catalog/ranked-list.ts), which the catalogue loader (in production, the ranking job)
 * writes and the listings read: `creators#<category|all>#<tier|all>#<sort>`, `creators#featured`
 * (most popular first), `creators#live` (most watched first) and `channels` (by channel number).
 */

/** The ranked list of creators filtered by category and tier in one sort order. */
export const creatorListName = (category: CategoryId | 'all', tier: TierId | 'all', sort: CreatorSort) =>
  `creators#${category}#${tier}#${sort}`;

/** The lists that take no filter. */
export const CREATOR_LISTS = {
  featured: 'creators#featured',
  live: 'creators#live',
  channels: 'channels',
} as const;

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
        items.push(...rankedListItems(creatorListName(category, tier, sort), ids));
      }
    }
  }
  const popular = [...creators].sort(bySort.most_popular);
  items.push(
    ...rankedListItems(
      CREATOR_LISTS.featured,
      popular.filter((c) => c.is_featured).map((c) => c.id),
    ),
  );
  const live = creators
    .filter((c) => c.live)
    .sort((a, b) => b.watching_now - a.watching_now || a.id.localeCompare(b.id));
  items.push(
    ...rankedListItems(
      CREATOR_LISTS.live,
      live.map((c) => c.id),
    ),
  );
  const byNumber = [...creators].sort((a, b) => a.channel.channel_number - b.channel.channel_number);
  items.push(
    ...rankedListItems(
      CREATOR_LISTS.channels,
      byNumber.map((c) => c.id),
    ),
  );
  return items;
};
