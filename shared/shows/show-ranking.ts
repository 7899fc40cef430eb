import { SHOW_SORTS, type ShowSort } from '../catalog/model.ts';
import type { CategoryId, EpisodeRecord, RatingId, ShowRecord } from '../catalog/model.ts';
import { type ListEntry, rankKey } from '../catalog/ranked-list.ts';
import { compareText } from '../compare.ts';

/**
 * How shows and episodes are ranked: the sort orders of show listings (docs/shows.md) and the
 * ranked lists they produce (shared/catalog/ranked-list.ts), which the catalogue loader (in
 * production, the ranking job) writes and the listings read.
 * - `shows#<category|all>#<rating|all>#<new>#<featured>#<sort>`, new and featured ∈ any|yes|no
 *   (only non-empty lists are written);
 * - `episodes#<category|all>#most_viewed`, whose ids are episode references
 *   `<show id>#<season>#<episode>`.
 */

/** The sort orders of show listings (documented in docs/shows.md). */
/** What the sort orders read of a show (a show's record, or its search card). */
type Sortable = Pick<ShowRecord, 'id' | 'total_views' | 'released_at' | 'views_7d'>;

export const showOrder: Record<ShowSort, (a: Sortable, b: Sortable) => number> = {
  most_popular: (a, b) => b.total_views - a.total_views || compareText(a.id, b.id),
  newest: (a, b) => compareText(b.released_at, a.released_at) || compareText(a.id, b.id),
  trending: (a, b) => b.views_7d - a.views_7d || compareText(a.id, b.id),
};

type Flag = 'any' | 'yes' | 'no';

/** A flag filter as a list name part: null = either. */
export const flag = (value: boolean | null): Flag => (value === null ? 'any' : value ? 'yes' : 'no');

/** The ranked list of shows matching one filter combination in one sort order. */
export const showListName = (
  category: CategoryId | 'all',
  rating: RatingId | 'all',
  isNew: Flag,
  isFeatured: Flag,
  sort: ShowSort,
) => `shows#${category}#${rating}#${isNew}#${isFeatured}#${sort}`;

/** The ranked list of the most viewed episodes (of shows in a category). */
export const episodeListName = (category: CategoryId | 'all') => `episodes#${category}#most_viewed`;

/** Where an episode stands in its show. */
export interface EpisodePosition {
  showId: string;
  season: number;
  episode: number;
}

const episodeRef = (e: Pick<EpisodeRecord, 'show_id' | 'season' | 'episode_number'>) =>
  `${e.show_id}#${e.season}#${e.episode_number}`;

/** The episode an id of an episode list refers to (`<show id>#<season>#<episode>`). */
export const episodePositionOf = (ref: string): EpisodePosition => {
  const [season, episode] = ref.split('#').slice(-2).map(Number);
  return {
    showId: ref.slice(0, ref.lastIndexOf('#', ref.lastIndexOf('#') - 1)),
    season: season!,
    episode: episode!,
  };
};

const showKeyOf: Record<ShowSort, (s: ShowRecord) => string> = {
  most_popular: (s) => rankKey.desc(s.total_views, s.id),
  newest: (s) => rankKey.newest(s.released_at, s.id),
  trending: (s) => rankKey.desc(s.views_7d, s.id),
};

/**
 * Every list one show is in, with its rank key there: per sort order, each combination of its
 * category, rating, new and featured flags with and without that filter (16 lists).
 */
export const showListEntries = (s: ShowRecord): ListEntry[] => {
  const entries: ListEntry[] = [];
  for (const sort of SHOW_SORTS) {
    const key = showKeyOf[sort](s);
    for (const category of ['all', s.category] as const)
      for (const rating of ['all', s.rating] as const)
        for (const isNew of ['any', flag(s.is_new)] as const)
          for (const isFeatured of ['any', flag(s.is_featured)] as const)
            entries.push({
              list: showListName(category, rating, isNew, isFeatured, sort),
              key,
              id: s.id,
              creatorId: s.creator_id,
            });
  }
  return entries;
};

/** The most-viewed lists one episode is in (all shows, and its show's category). */
export const episodeListEntries = (e: EpisodeRecord, category: CategoryId): ListEntry[] => {
  const id = episodeRef(e);
  const key = rankKey.desc(e.views, e.id);
  return [
    { list: episodeListName('all'), key, id },
    { list: episodeListName(category), key, id },
  ];
};
