import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { CategoryId, EpisodeRecord, RatingId, ShowRecord } from '../catalog/model.ts';
import { CATEGORY_IDS, RATING_IDS } from '../catalog/model.ts';
import {
  rankedListItems,
  readRankedPage,
  readRankedPages,
  readRankedTotals,
} from '../catalog/ranked-list.ts';
import { batchGet } from '../db/batch.ts';
import { db } from '../db/client.ts';
import { getByIndex, queryAll, queryFirst } from '../db/query.ts';
import { recordOf } from '../db/record.ts';
import { tableName } from '../db/table.ts';
import { searchIds, searchItems } from '../search/search-index.ts';

/**
 * Shows and episodes: key design and access patterns (see docs/data-model.md, "Shows").
 * - show profile: PK `SHOW#<id>`, SK `PROFILE` (the whole ShowRecord)
 *     GSI1PK `CREATOR_SHOWS#<creator id>`, GSI1SK `SHOW#<id>#PROFILE`  (a creator's catalogue)
 *     GSI2PK `SHOW_SLUG#<slug>`,           GSI2SK `SHOW`               (slug lookup)
 * - episode:      PK `SHOW#<show id>`, SK `EP#<season 2 digits>#<episode 3 digits>` (the EpisodeRecord):
 *     a show with all its episodes is one Query of one item collection.
 *     GSI1PK `CREATOR_SHOWS#<creator id>`, GSI1SK `SHOW#<show id>#EP#<ss>#<eee>`: a creator's
 *     shows with all their episodes are one Query on GSI1.
 *     GSI3PK `EPISODE#<id>`, GSI3SK `EPISODE`                          (episode by id)
 * - listings:     ranked lists `shows#<category|all>#<rating|all>#<new>#<featured>#<sort>` where
 *     new ∈ any|yes|no and featured ∈ any|yes|no (only non-empty lists are written), and
 *     `episodes#<category|all>#most_viewed` whose ids are episode references `<show id>#<season>#<episode>`.
 * - search:       inverted index kind `show` over the title (shared/search/search-index.ts).
 */
export const SHOW_SORTS = ['most_popular', 'newest', 'trending'] as const;
export type ShowSort = (typeof SHOW_SORTS)[number];

/** A show with its episodes (season, then episode order). Also the creator detail blocks' input. */
export interface ShowWithEpisodes {
  show: ShowRecord;
  episodes: EpisodeRecord[];
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');
const showKey = (id: string) => ({ PK: `SHOW#${id}`, SK: 'PROFILE' });
const episodeSk = (season: number, episode: number) => `EP#${pad(season, 2)}#${pad(episode, 3)}`;
const episodeKey = (showId: string, season: number, episode: number) => ({
  PK: `SHOW#${showId}`,
  SK: episodeSk(season, episode),
});
const creatorShowsPk = (creatorId: string) => `CREATOR_SHOWS#${creatorId}`;

type Flag = 'any' | 'yes' | 'no';
const flag = (value: boolean | null): Flag => (value === null ? 'any' : value ? 'yes' : 'no');
const listName = (
  category: CategoryId | 'all',
  rating: RatingId | 'all',
  isNew: Flag,
  isFeatured: Flag,
  sort: ShowSort,
) => `shows#${category}#${rating}#${isNew}#${isFeatured}#${sort}`;
const episodeListName = (category: CategoryId | 'all') => `episodes#${category}#most_viewed`;
const episodeRef = (e: Pick<EpisodeRecord, 'show_id' | 'season' | 'episode_number'>) =>
  `${e.show_id}#${e.season}#${e.episode_number}`;
const refKey = (ref: string) => {
  const [season, episode] = ref.split('#').slice(-2).map(Number);
  return episodeKey(ref.slice(0, ref.lastIndexOf('#', ref.lastIndexOf('#') - 1)), season!, episode!);
};

const byEpisodeOrder = (a: EpisodeRecord, b: EpisodeRecord) =>
  a.season - b.season || a.episode_number - b.episode_number;

/** The sort orders of show listings (documented in docs/shows.md). */
export const showOrder: Record<ShowSort, (a: ShowRecord, b: ShowRecord) => number> = {
  most_popular: (a, b) => b.total_views - a.total_views || a.id.localeCompare(b.id),
  newest: (a, b) => b.released_at.localeCompare(a.released_at) || a.id.localeCompare(b.id),
  trending: (a, b) => b.views_7d - a.views_7d || a.id.localeCompare(b.id),
};

/** The stored items of one show: its profile, its episodes and its search index items. */
export const showItems = (
  show: ShowRecord,
  episodes: readonly EpisodeRecord[],
): Record<string, unknown>[] => [
  {
    ...showKey(show.id),
    GSI1PK: creatorShowsPk(show.creator_id),
    GSI1SK: `SHOW#${show.id}#PROFILE`,
    GSI2PK: `SHOW_SLUG#${show.slug}`,
    GSI2SK: 'SHOW',
    entity: 'show',
    ...show,
  },
  ...episodes.map((episode) => ({
    ...episodeKey(show.id, episode.season, episode.episode_number),
    GSI1PK: creatorShowsPk(show.creator_id),
    GSI1SK: `SHOW#${show.id}#${episodeSk(episode.season, episode.episode_number)}`,
    GSI3PK: `EPISODE#${episode.id}`,
    GSI3SK: 'EPISODE',
    entity: 'episode',
    ...episode,
  })),
  ...searchItems('show', show.id, show.title, {
    category: show.category,
    rating: show.rating,
    is_new: show.is_new,
    is_featured: show.is_featured,
    total_views: show.total_views,
    released_at: show.released_at,
    views_7d: show.views_7d,
  }),
];

/** Every show's items (episodes grouped by show): what the catalogue loader writes. */
export const catalogShowItems = (
  shows: readonly ShowRecord[],
  episodes: readonly EpisodeRecord[],
): Record<string, unknown>[] => {
  const byShow = new Map<string, EpisodeRecord[]>();
  for (const e of episodes) {
    const list = byShow.get(e.show_id);
    if (list) list.push(e);
    else byShow.set(e.show_id, [e]);
  }
  return shows.flatMap((show) => showItems(show, byShow.get(show.id) ?? []));
};

const FLAGS: readonly Flag[] = ['any', 'yes', 'no'];
const matchesFlag = (f: Flag, value: boolean) => f === 'any' || (f === 'yes') === value;

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
              items.push(...rankedListItems(listName(category, rating, isNew, isFeatured, sort), ids));
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

const collect = (items: readonly Record<string, unknown>[]): ShowWithEpisodes[] => {
  const shows = new Map<string, ShowWithEpisodes>();
  const episodes: EpisodeRecord[] = [];
  for (const item of items) {
    if (item.entity === 'show') {
      const show = recordOf<ShowRecord>(item);
      shows.set(show.id, { show, episodes: [] });
    } else if (item.entity === 'episode') episodes.push(recordOf<EpisodeRecord>(item));
  }
  for (const episode of episodes) shows.get(episode.show_id)?.episodes.push(episode);
  for (const entry of shows.values()) entry.episodes.sort(byEpisodeOrder);
  return [...shows.values()];
};

/** The id of the show with this slug, if any (one Query on GSI2). */
const showIdBySlug = async (slug: string): Promise<string | undefined> => {
  const item = await getByIndex('GSI2', { pk: `SHOW_SLUG#${slug.toLowerCase()}`, sk: 'SHOW' }, 'id');
  return typeof item?.id === 'string' ? item.id : undefined;
};

/**
 * A show with all its episodes, by id (`sh_…`: one Query of its item collection) or by slug
 * (the `/shows/<slug>` channel URL form: one Query on GSI2, then the same Query).
 */
export const getShowWithEpisodes = async (idOrSlug: string): Promise<ShowWithEpisodes | undefined> => {
  const id = idOrSlug.startsWith('sh_') ? idOrSlug : await showIdBySlug(idOrSlug);
  if (!id) return undefined;
  const items = await queryAll({
    KeyConditionExpression: 'PK = :pk',
    ExpressionAttributeValues: { ':pk': `SHOW#${id}` },
  });
  return collect(items)[0];
};

/**
 * Every show of a creator with all its episodes (one Query on GSI1, paged through; cost bounded
 * by that creator's catalogue). Shows are most popular first; episodes in season/episode order.
 */
export const listShowsByCreator = async (creatorId: string): Promise<ShowWithEpisodes[]> => {
  const items = await queryAll({
    IndexName: 'GSI1',
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': creatorShowsPk(creatorId) },
  });
  return collect(items).sort((a, b) => showOrder.most_popular(a.show, b.show));
};

/** Show profiles by id, in the order given (unknown ids left out). One BatchGetItem per 100. */
export const getShows = async (ids: readonly string[]): Promise<ShowRecord[]> =>
  (await batchGet(ids.map(showKey), (item) => String(item.PK))).map((item) => recordOf<ShowRecord>(item));

/** One episode by its id (one Query on GSI3). */
export const getEpisode = async (id: string): Promise<EpisodeRecord | undefined> => {
  const item = await getByIndex('GSI3', { pk: `EPISODE#${id}`, sk: 'EPISODE' });
  return item ? recordOf<EpisodeRecord>(item) : undefined;
};

/** The first episode (lowest season, then episode number) of each show: one Limit-1 Query per show. */
export const getFirstEpisodes = async (showIds: readonly string[]): Promise<Map<string, EpisodeRecord>> => {
  const found = await Promise.all(
    showIds.map(async (id) => {
      const item = await queryFirst({
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :ep)',
        ExpressionAttributeValues: { ':pk': `SHOW#${id}`, ':ep': 'EP#' },
      });
      return item ? ([id, recordOf<EpisodeRecord>(item)] as const) : undefined;
    }),
  );
  return new Map(found.filter((entry) => entry !== undefined));
};

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

/** A page of shows matching a filter in a sort order: ranked-list BatchGetItem, then BatchGetItem of the shows. */
export const listShows = async (filter: ShowFilter, page: number, limit: number): Promise<ShowPage> => {
  const list = listName(
    filter.category,
    filter.rating,
    flag(filter.isNew),
    flag(filter.isFeatured),
    filter.sort,
  );
  const { ids, total } = await readRankedPage(list, page, limit);
  return { shows: await getShows(ids), total };
};

/**
 * The first `limit` most popular shows of every category, with each category's total: one
 * BatchGetItem for the 8 ranked lists, then one for all the shows.
 */
export const listTopShowsByCategory = async (limit: number): Promise<Map<CategoryId, ShowPage>> => {
  const pages = await readRankedPages(
    CATEGORY_IDS.map((c) => listName(c, 'all', 'any', 'any', 'most_popular')),
    1,
    limit,
  );
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
  const totals = await readRankedTotals(
    CATEGORY_IDS.map((c) => listName(c, 'all', 'any', 'any', 'most_popular')),
  );
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
  const items = await batchGet(ids.map(refKey), (item) => `${item.PK}|${item.SK}`);
  return { episodes: items.map((item) => recordOf<EpisodeRecord>(item)), total };
};

/**
 * One page of shows matching a search query, filtered and sorted on the index facets (relevance
 * first, then most popular; or the requested sort): reads index items and only the page's shows.
 */
export const searchShows = async (q: {
  q: string;
  category: CategoryId | 'all';
  sort?: ShowSort;
  rating?: string;
  is_new?: boolean;
  is_featured?: boolean;
  page: number;
  limit: number;
}): Promise<{ shows: ShowRecord[]; total: number }> => {
  const asShow = (h: { id: string; facets: Record<string, unknown> }) =>
    ({ id: h.id, ...h.facets }) as unknown as ShowRecord;
  const hits = (await searchIds('show', q.q)).filter(
    ({ facets: f }) =>
      (q.category === 'all' || f.category === q.category) &&
      (q.rating === undefined || f.rating === q.rating) &&
      (q.is_new === undefined || f.is_new === q.is_new) &&
      (q.is_featured === undefined || f.is_featured === q.is_featured),
  );
  hits.sort((a, b) =>
    q.sort
      ? showOrder[q.sort](asShow(a), asShow(b))
      : b.score - a.score || showOrder.most_popular(asShow(a), asShow(b)),
  );
  const page = hits.slice((q.page - 1) * q.limit, q.page * q.limit);
  return { shows: await getShows(page.map((h) => h.id)), total: hits.length };
};

/** One show profile by id (GetItem). */
export const getShow = async (id: string): Promise<ShowRecord | undefined> => {
  const result = await db.send(new GetCommand({ TableName: tableName(), Key: showKey(id) }));
  return result.Item ? recordOf<ShowRecord>(result.Item) : undefined;
};
