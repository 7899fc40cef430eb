import { CREATOR_SORTS, type CreatorSort } from '../catalog/model.ts';
import type { CategoryId, CreatorRecord, TierId } from '../catalog/model.ts';
import { type ListEntry, rankKey } from '../catalog/ranked-list.ts';

/**
 * How creators are ranked: the sort orders of creator listings and the ranked lists they produce
 * (shared/catalog/ranked-list.ts), which the
 * projections write and the listings read: `creators#<category|all>#<tier|all>#<sort>`, `creators#featured`
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

const sortKeyOf: Record<CreatorSort, (c: CreatorRecord) => string> = {
  most_popular: (c) => rankKey.desc(c.subscribers, c.id),
  newest: (c) => rankKey.newest(c.joined_at, c.id),
  trending: (c) => rankKey.desc(c.subscribers_7d, c.id),
};

/**
 * Every list one creator is in, with its rank key there: per sort order, the lists of its
 * category and tier with and without each filter (4), plus featured, live and channels. Public
 * creators only: a suspended creator is in none.
 */
export const creatorListEntries = (c: CreatorRecord): ListEntry[] => {
  if (c.suspended_at) return [];
  const entries: ListEntry[] = [];
  for (const sort of CREATOR_SORTS) {
    const key = sortKeyOf[sort](c);
    for (const category of ['all', c.category] as const)
      for (const tier of ['all', c.tier] as const)
        entries.push({ list: creatorListName(category, tier, sort), key, id: c.id });
  }
  if (c.is_featured) entries.push({ list: CREATOR_LISTS.featured, key: sortKeyOf.most_popular(c), id: c.id });
  if (c.live) entries.push({ list: CREATOR_LISTS.live, key: rankKey.desc(c.watching_now, c.id), id: c.id });
  entries.push({ list: CREATOR_LISTS.channels, key: rankKey.asc(c.channel.channel_number, c.id), id: c.id });
  return entries;
};
