import { SHOW_SORTS, type ShowSort } from '../catalog/model.ts';
import type { CategoryId, EpisodeRecord, RatingId, ShowRecord } from '../catalog/model.ts';
import { CATEGORY_IDS, RATING_IDS } from '../catalog/model.ts';
import { rankedListItems } from '../catalog/ranked-list.ts';

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
export const showOrder: Record<ShowSort, (a: ShowRecord, b: ShowRecord) => number> = {
  most_popular: (a, b) => b.total_views - a.total_views || a.id.localeCompare(b.id),
  newest: (a, b) => b.released_at.localeCompare(a.released_at) || a.id.localeCompare(b.id),
  trending: (a, b) => b.views_7d - a.views_7d || a.id.localeCompare(b.id),
};

type Flag = 'any' | 'yes' | 'no';
const FLAGS: readonly Flag[] = ['any', 'yes', 'no'];
const matchesFlag = (f: Flag, value: boolean) => f === 'any' || (f === 'yes') === value;

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

/** Ranked-list items of every show filter combination and the most-viewed episode lists. */
export const showListingItems = (
  shows: readonly ShowRecord[],
  episodes: readonly EpisodeRecord[],
): Record<string, unknown>[] => {
  const items: Record<string, unknown>[] = [];
  for (const sort of SHOW_SORTS) {
    const sorted = [...shows].sort(showOrder[sort]);
    for (const category of ['all', ...CATEGORY_IDS] as const) {
      for (const rating of ['all', ...RATING_IDS] as const) {
        for (const isNew of FLAGS) {
          for (const isFeatured of FLAGS) {
            const ids = sorted
              .filter(
                (s) =>
                  (category === 'all' || s.category === category) &&
                  (rating === 'all' || s.rating === rating) &&
                  matchesFlag(isNew, s.is_new) &&
                  matchesFlag(isFeatured, s.is_featured),
              )
              .map((s) => s.id);
            if (ids.length > 0)
              items.push(...rankedListItems(showListName(category, rating, isNew, isFeatured, sort), ids));
          }
        }
      }
    }
  }
  const categoryOf = new Map(shows.map((s) => [s.id, s.category]));
  const mostViewed = [...episodes]
    .filter((e) => categoryOf.has(e.show_id))
    .sort((a, b) => b.views - a.views || a.id.localeCompare(b.id));
  for (const category of ['all', ...CATEGORY_IDS] as const) {
    const refs = mostViewed
      .filter((e) => category === 'all' || categoryOf.get(e.show_id) === category)
      .map(episodeRef);
    if (refs.length > 0) items.push(...rankedListItems(episodeListName(category), refs));
  }
  return items;
};
