import type { CreatorRecord, ShowRecord } from '../catalog/model.ts';
import { CATEGORIES, RATINGS } from '../catalog/reference.ts';
import { countCreatorsByCategory } from '../creators/creator-listings.ts';
import { getCreator, getCreators } from '../creators/creator-repository.ts';
import { getRelationship } from '../creators/relationship-repository.ts';
import { NotFoundError } from '../errors/errors.ts';
import { type Pagination, pageSlice, pagination } from '../pagination.ts';
import { anonymous, entitledViewer, type Viewer } from './entitlement.ts';
import { loadMediaSigner } from '../playback/media-key.ts';
import type {
  CategoryPageQuery,
  ContentRatingList,
  CreatorSeriesList,
  FeaturedShowList,
  ListShowsQuery,
  MostViewedEpisode,
  MostViewedMeta,
  NewReleasesMeta,
  SearchShowsQuery,
  ShowCategoryList,
  ShowDetail,
  ShowList,
  ShowListMeta,
  ShowSearchList,
  ShowSearchMeta,
  ShowSection,
  TopCategory,
  TvShowDetail,
} from './schemas.ts';
import {
  countShowsByCategory,
  listMostViewedEpisodes,
  listTopShowsByCategory,
  showListPage,
  type ShowFilter,
} from './show-listings.ts';
import { getShows, getShowWithEpisodes, listShowsByCreator } from './show-repository.ts';
import { searchShows } from './show-search.ts';
import {
  creatorSeriesItem,
  featuredShowItem,
  mostViewedEpisodeItem,
  showDetail,
  showListItem,
  topCategoryShow,
  tvShowDetail,
} from './show-views.ts';
import { compareText } from '../compare.ts';

/** Creators by id (one BatchGetItem). */
const creatorsById = async (ids: readonly string[]): Promise<Map<string, CreatorRecord>> =>
  new Map((await getCreators([...new Set(ids)])).map((c) => [c.id, c]));

/** The creators of some shows, by id (one BatchGetItem). */
const creatorsOf = (shows: readonly ShowRecord[]) => creatorsById(shows.map((s) => s.creator_id));

/**
 * The effective flag filter of `section` plus `is_new`/`is_featured`: `section=new_releases` means
 * is_new=true, `section=featured` means is_featured=true. A contradiction matches nothing (null).
 */
export const resolveSection = (
  section: ShowSection,
  isNew: boolean | undefined,
  isFeatured: boolean | undefined,
): { isNew: boolean | null; isFeatured: boolean | null } | null => {
  if (section === 'new_releases' && isNew === false) return null;
  if (section === 'featured' && isFeatured === false) return null;
  return {
    isNew: section === 'new_releases' ? true : (isNew ?? null),
    isFeatured: section === 'featured' ? true : (isFeatured ?? null),
  };
};

const pageOfShows = async (filter: ShowFilter | null, page: number, limit: number) => {
  if (!filter) return { shows: [], creators: new Map<string, CreatorRecord>(), total: 0 };
  const { entries, total } = await showListPage(filter, page, limit);
  // The shows and, from the entries, their creators at once; entries projected before they
  // recorded the creator: the creators after the shows (a round trip more).
  const creatorIds = entries.flatMap((e) => (e.creatorId === undefined ? [] : [e.creatorId]));
  const [shows, creators] = await Promise.all([
    getShows(entries.map((e) => e.id)),
    creatorIds.length === entries.length ? creatorsById(creatorIds) : undefined,
  ]);
  return { shows, creators: creators ?? (await creatorsOf(shows)), total };
};

/** `GET /shows`: filtered, sorted page with `filters_applied` (unset filters null). */
export const browseShows = async (
  q: ListShowsQuery,
): Promise<{ data: ShowList; meta_data: ShowListMeta }> => {
  const flags = resolveSection(q.section, q.is_new, q.is_featured);
  const filter: ShowFilter | null = flags && {
    category: q.category,
    rating: q.rating ?? 'all',
    sort: q.sort,
    ...flags,
  };
  const { shows, creators, total } = await pageOfShows(filter, q.page, q.limit);
  return {
    data: { shows: shows.map((s) => showListItem(s, creators.get(s.creator_id))) },
    meta_data: {
      ...pagination(total, q.page, q.limit),
      filters_applied: {
        category: q.category,
        sort: q.sort,
        section: q.section,
        rating: q.rating ?? null,
        is_new: q.is_new ?? null,
        is_featured: q.is_featured ?? null,
      },
    },
  };
};

export const NEW_RELEASES = {
  section: 'new_releases',
  section_title: 'New Releases',
  section_subtitle: 'The latest shows from your favourite creators',
} as const;

export const FEATURED = {
  section_title: 'Featured Shows',
  section_subtitle: 'Hand-picked series worth your time',
} as const;

/** `GET /shows/new-releases`: new shows, newest first. */
export const newReleases = async (
  q: CategoryPageQuery,
): Promise<{ data: ShowList; meta_data: NewReleasesMeta }> => {
  const filter: ShowFilter = {
    category: q.category,
    rating: 'all',
    isNew: true,
    isFeatured: null,
    sort: 'newest',
  };
  const { shows, creators, total } = await pageOfShows(filter, q.page, q.limit);
  return {
    data: { shows: shows.map((s) => showListItem(s, creators.get(s.creator_id))) },
    meta_data: { ...NEW_RELEASES, ...pagination(total, q.page, q.limit) },
  };
};

/**
 * `GET /shows/featured`: featured shows, most popular first. Keeps today's `data` fields
 * (`section_title`, `section_subtitle`, `total`, `shows`) and adds the requested `meta_data`.
 */
export const featuredShows = async (
  q: CategoryPageQuery,
): Promise<{ data: FeaturedShowList; meta_data: Pagination }> => {
  const filter: ShowFilter = {
    category: q.category,
    rating: 'all',
    isNew: null,
    isFeatured: true,
    sort: 'most_popular',
  };
  const { shows, creators, total } = await pageOfShows(filter, q.page, q.limit);
  return {
    data: { ...FEATURED, total, shows: shows.map((s) => featuredShowItem(s, creators.get(s.creator_id))) },
    meta_data: pagination(total, q.page, q.limit),
  };
};

/** `GET /shows/search`: relevance first (exact > prefix > typo), or the requested sort. */
export const findShows = async (
  q: SearchShowsQuery,
): Promise<{ data: ShowSearchList; meta_data: ShowSearchMeta }> => {
  const { shows, total, relation } = await searchShows(q);
  return {
    data: { shows },
    meta_data: { query: q.q, type: 'shows', ...pagination(total, q.page, q.limit), total_relation: relation },
  };
};

/** `GET /shows/categories`: every category with its show count (0 included). */
export const showCategories = async (): Promise<ShowCategoryList> => {
  const counts = await countShowsByCategory();
  return {
    categories: CATEGORIES.map(({ id, label, icon }) => ({
      id,
      label,
      icon,
      show_count: counts.get(id) ?? 0,
    })),
  };
};

/** `GET /shows/ratings`. */
export const showRatings = (): ContentRatingList => ({
  ratings: RATINGS.map(({ id, label, description }) => ({ id, label, description })),
});

const findShow = async (idOrSlug: string) => {
  const found = await getShowWithEpisodes(idOrSlug);
  if (!found) throw new NotFoundError('Show not found');
  return found;
};

/** The caller as the entitlement rule sees it for one creator's episodes (no read when anonymous). */
const viewerOf = async (accountId: string | undefined, creatorId: string, now: Date): Promise<Viewer> => {
  if (!accountId) return anonymous(await loadMediaSigner());
  const [rel, play] = await Promise.all([getRelationship(accountId, creatorId), loadMediaSigner()]);
  return entitledViewer(rel.entitlements, now, play, accountId);
};

/**
 * `GET /shows/:id` (id or slug), for the caller: locked episodes carry `stream_url: null`. The
 * route takes no token today (auth `none`), so every caller is anonymous there.
 */
export const getShowDetail = async (
  idOrSlug: string,
  accountId: string | undefined,
  now: Date,
): Promise<ShowDetail> => {
  const { show, episodes } = await findShow(idOrSlug);
  const [creator, viewer] = await Promise.all([
    getCreator(show.creator_id),
    viewerOf(accountId, show.creator_id, now),
  ]);
  return showDetail(show, creator, episodes, viewer);
};

/** `GET /tv/v3/shows/{id}`: seasons with gated episodes, for the caller (anonymous when no token). */
export const getTvShowDetail = async (
  idOrSlug: string,
  accountId: string | undefined,
  now: Date,
): Promise<TvShowDetail> => {
  const { show, episodes } = await findShow(idOrSlug);
  const [creator, viewer] = await Promise.all([
    getCreator(show.creator_id),
    viewerOf(accountId, show.creator_id, now),
  ]);
  return tvShowDetail(show, creator, episodes, viewer);
};

/**
 * `GET /shows/episodes/most-viewed`: `total_live` as in spec 4.3, plus the standard `total`. A
 * public list across creators: entitlements are an anonymous viewer's (free episodes play).
 */
export const mostViewedEpisodes = async (
  q: CategoryPageQuery,
): Promise<{ data: MostViewedEpisode[]; meta_data: MostViewedMeta }> => {
  const [{ episodes, total }, play] = await Promise.all([
    listMostViewedEpisodes(q.category, q.page, q.limit),
    loadMediaSigner(),
  ]);
  const viewer = anonymous(play);
  return {
    data: episodes.map((e) => mostViewedEpisodeItem(e, viewer)),
    meta_data: { total_live: total, ...pagination(total, q.page, q.limit) },
  };
};

/** Shows per category in `/shows/categories-top`. */
export const TOP_CATEGORY_SHOWS = 5;

/**
 * `GET /shows/categories-top`: categories that have shows, most shows first, each with its most
 * popular shows. `thump_url` (spelled as in the spec) is the top show's thumbnail.
 */
export const topCategories = async (): Promise<TopCategory[]> => {
  const [pages, creatorCounts] = await Promise.all([
    listTopShowsByCategory(TOP_CATEGORY_SHOWS),
    countCreatorsByCategory(),
  ]);
  return CATEGORIES.map((c) => ({ category: c, ...(pages.get(c.id) ?? { shows: [], total: 0 }) }))
    .filter((entry) => entry.total > 0)
    .sort((a, b) => b.total - a.total || compareText(a.category.id, b.category.id))
    .map(({ category, shows, total }) => ({
      id: category.id,
      label: category.label,
      show_count: total,
      creators_count: creatorCounts.get(category.id) ?? 0,
      emoji: category.emoji,
      thump_url: shows[0]?.thumbnail_url ?? null,
      bg_color: category.bg_color,
      shows: shows.map(topCategoryShow),
    }));
};

/** `GET /tv/v3/creators/{id}/series`: a creator's series (most popular first), paginated. */
export const creatorSeries = async (
  idOrSlug: string,
  page: number,
  limit: number,
): Promise<{ data: CreatorSeriesList; meta_data: Pagination }> => {
  const creator = await getCreator(idOrSlug);
  if (!creator) throw new NotFoundError('Creator not found');
  const [all, play] = await Promise.all([listShowsByCreator(creator.id), loadMediaSigner()]);
  const viewer = anonymous(play);
  return {
    data: {
      items: pageSlice(all, page, limit).map(({ show, episodes }) =>
        creatorSeriesItem(show, creator, episodes, viewer),
      ),
    },
    meta_data: pagination(all.length, page, limit),
  };
};
