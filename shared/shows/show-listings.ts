import type { CategoryId, EpisodeRecord, RatingId, ShowRecord } from '../catalog/model.ts';
import { CATEGORY_IDS } from '../catalog/model.ts';
import {
  type PageEntry,
  readRankedEntries,
  readRankedPage,
  readRankedPages,
  readRankedTotals,
} from '../catalog/ranked-list.ts';
import { getEpisodesAt, getShows } from './show-repository.ts';
import { episodeListName, episodePositionOf, flag, showListName } from './show-ranking.ts';
import type { ShowSort } from '../catalog/model.ts';

/**
 * Show and episode listings: pages of the ranked lists (shared/shows/show-ranking.ts), then the
 * page's shows or episodes from the repository.
 */
export interface ShowFilter {
  category: CategoryId | 'all';
  rating: RatingId | 'all';
  /** null = either. */
  isNew: boolean | null;
  /** null = either. */
  isFeatured: boolean | null;
  sort: ShowSort;
}

export interface ShowPage {
  shows: ShowRecord[];
  total: number;
}

/**
 * The entries of a page of shows matching a filter in a sort order (each show's id and, where the
 * entry records it, its creator's), with the total: one round trip (the list's Query beside its
 * total). The caller reads the shows (`getShows`) together with whatever else the entries name
 * (their creators, first episodes), so a page takes two round trips, not three (issue 41).
 */
export const showListPage = (
  filter: ShowFilter,
  page: number,
  limit: number,
): Promise<{ entries: PageEntry[]; total: number }> =>
  readRankedEntries(
    showListName(filter.category, filter.rating, flag(filter.isNew), flag(filter.isFeatured), filter.sort),
    page,
    limit,
  );

const mostPopularOf = (category: CategoryId) => showListName(category, 'all', 'any', 'any', 'most_popular');

/**
 * The first `limit` most popular shows of every category, with each category's total: one
 * BatchGetItem for the 8 ranked lists, then one for all the shows.
 */
export const listTopShowsByCategory = async (limit: number): Promise<Map<CategoryId, ShowPage>> => {
  const pages = await readRankedPages(CATEGORY_IDS.map(mostPopularOf), 1, limit);
  const shows = new Map((await getShows(pages.flatMap((p) => p.ids))).map((s) => [s.id, s]));
  return new Map(
    CATEGORY_IDS.map((c, i) => [
      c,
      {
        shows: pages[i]!.ids.flatMap((id) => shows.get(id) ?? []),
        total: pages[i]!.total,
      },
    ]),
  );
};

/** Number of shows per category (one BatchGetItem over the lists' totals). */
export const countShowsByCategory = async (): Promise<Map<CategoryId, number>> => {
  const totals = await readRankedTotals(CATEGORY_IDS.map(mostPopularOf));
  return new Map(CATEGORY_IDS.map((c, i) => [c, totals[i] ?? 0]));
};

export interface EpisodePage {
  episodes: EpisodeRecord[];
  total: number;
}

/** A page of the most viewed episodes (of shows in a category): ranked list, then BatchGetItem. */
export const listMostViewedEpisodes = async (
  category: CategoryId | 'all',
  page: number,
  limit: number,
): Promise<EpisodePage> => {
  const { ids, total } = await readRankedPage(episodeListName(category), page, limit);
  return { episodes: await getEpisodesAt(ids.map(episodePositionOf)), total };
};
