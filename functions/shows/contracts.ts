import * as z from 'zod/mini';
import { contract } from '../../shared/http/contract.ts';
import { Pagination } from '../../shared/pagination.ts';
import {
  categoryPageQuery10,
  listShowsQuery,
  searchShowsQuery,
  showPath,
  showResponses,
} from '../../shared/shows/schemas.ts';

const showNotFound = {
  description: 'No show has this id or slug',
  message: 'Show not found',
} as const;

const tag = 'Shows';

export const listShows = /* @__PURE__ */ contract({
  operationId: 'listShows',
  method: 'GET',
  path: '/shows',
  handler: 'shows/list-shows',
  dynamo: { actions: ['BatchGetItem', 'Query'] },
  auth: 'none',
  tag,
  summary: 'List shows with category/section/rating/new/featured filters and sorting',
  description:
    'A page of shows filtered by category, section, rating and the new/featured flags, in the order asked (most popular by default). Each show carries its creator and view counts; `meta_data` echoes the filters applied (unset ones null). Public: no token.',
  request: { query: listShowsQuery },
  responses: () => ({
    200: {
      description: 'A page of shows',
      data: showResponses().ShowList,
      meta: showResponses().ShowListMeta,
    },
  }),
});

export const listNewReleases = /* @__PURE__ */ contract({
  operationId: 'listNewReleases',
  method: 'GET',
  path: '/shows/new-releases',
  handler: 'shows/list-new-releases',
  dynamo: { actions: ['BatchGetItem', 'Query'] },
  auth: 'none',
  tag,
  summary: 'New releases, newest first',
  description:
    "New shows (flagged new), newest release first, optionally of one category. `meta_data` carries the section's title and subtitle with the pagination. Public: no token.",
  request: { query: categoryPageQuery10 },
  responses: () => ({
    200: {
      description: 'A page of new shows, newest first',
      data: showResponses().ShowList,
      meta: showResponses().NewReleasesMeta,
    },
  }),
});

export const listFeaturedShows = /* @__PURE__ */ contract({
  operationId: 'listFeaturedShows',
  method: 'GET',
  path: '/shows/featured',
  handler: 'shows/list-featured-shows',
  dynamo: { actions: ['BatchGetItem', 'Query'] },
  auth: 'none',
  tag,
  summary: 'Featured shows, most popular first',
  description:
    "Featured shows, most viewed first, optionally of one category, with the section's title, subtitle and total in `data` (items keyed `show_id`). Public: no token.",
  request: { query: categoryPageQuery10 },
  responses: () => ({
    200: {
      description: 'A page of featured shows',
      data: showResponses().FeaturedShowList,
      meta: Pagination,
    },
  }),
});

export const searchShows = /* @__PURE__ */ contract({
  operationId: 'searchShows',
  method: 'GET',
  path: '/shows/search',
  handler: 'shows/search-shows',
  // Query: the search index; its items carry the page's cards (docs/search.md).
  dynamo: { actions: ['Query'] },
  auth: 'none',
  tag,
  summary: 'Search shows by title (prefix and one-typo tolerant)',
  description:
    'Shows whose title matches `q` (whole words, prefixes and one typo per word), best match first unless a `sort` is given, narrowed by category, rating and the new/featured flags; an exact title first. Reads a bounded number of the best matches (a `sort` orders those), so `meta_data.total_relation` says whether `total` is exact (`eq`) or a lower bound (`gte`). `meta_data` echoes the query. Public: no token.',
  request: { query: searchShowsQuery },
  responses: () => ({
    200: {
      description: 'A page of matching shows',
      data: showResponses().ShowSearchList,
      meta: showResponses().ShowSearchMeta,
    },
  }),
});

export const listShowCategories = /* @__PURE__ */ contract({
  operationId: 'listShowCategories',
  method: 'GET',
  path: '/shows/categories',
  handler: 'shows/list-show-categories',
  dynamo: { actions: ['BatchGetItem'] },
  auth: 'none',
  tag,
  summary: 'Show categories with show counts',
  description:
    'Every category, in the fixed reference order, with its label, icon and number of shows (0 included). Public: no token.',
  responses: () => ({
    200: { description: 'The categories with their show counts', data: showResponses().ShowCategoryList },
  }),
});

export const listRatings = /* @__PURE__ */ contract({
  operationId: 'listRatings',
  method: 'GET',
  path: '/shows/ratings',
  handler: 'shows/list-ratings',
  auth: 'none',
  tag,
  summary: 'Content ratings',
  description:
    'The TV parental guidelines ratings shows carry, mildest first, with a label and a description, for the rating filter. Public: no token.',
  responses: () => ({
    200: { description: 'The content ratings', data: showResponses().ContentRatingList },
  }),
});

export const listTopCategories = /* @__PURE__ */ contract({
  operationId: 'listTopCategories',
  method: 'GET',
  path: '/shows/categories-top',
  handler: 'shows/list-top-categories',
  dynamo: { actions: ['BatchGetItem', 'Query'] },
  auth: 'none',
  tag,
  summary: 'Top categories with their most popular shows',
  description:
    'The categories that have shows, most shows first, each with its number of shows and creators, display emoji and colour, the poster of its top show (`thump_url`) and its five most viewed shows. Public: no token.',
  responses: () => ({
    200: {
      description: 'The categories with shows, most shows first',
      data: z.array(showResponses().TopCategory),
    },
  }),
});

export const listMostViewedEpisodes = /* @__PURE__ */ contract({
  operationId: 'listMostViewedEpisodes',
  method: 'GET',
  path: '/shows/episodes/most-viewed',
  handler: 'shows/list-most-viewed-episodes',
  needs: ['media-signer'],
  dynamo: { actions: ['BatchGetItem', 'Query'] },
  auth: 'none',
  tag,
  summary: 'Most viewed episodes',
  description:
    "Episodes across all shows, most viewed first, optionally of one category's shows. A public list: entitlements are an anonymous viewer's, so only free episodes carry a `stream_url`. `meta_data.total_live` repeats `total` (spec 4.3).",
  request: { query: categoryPageQuery10 },
  responses: () => ({
    200: {
      description: 'A page of episodes, most viewed first',
      data: z.array(showResponses().MostViewedEpisode),
      meta: showResponses().MostViewedMeta,
    },
  }),
});

export const getShow = /* @__PURE__ */ contract({
  operationId: 'getShow',
  method: 'GET',
  path: '/shows/{id}',
  handler: 'shows/get-show',
  needs: ['media-signer'],
  dynamo: { actions: ['GetItem', 'Query'], indexes: ['GSI2'] },
  auth: 'none',
  tag,
  summary: 'Show detail with its episodes (by id or slug)',
  description:
    'A show by id or slug with its description, creator and every episode (by season, then episode number). The route takes no token, so the caller is anonymous: premium and pay-per-view episodes are locked and carry `stream_url: null`.',
  request: { path: showPath },
  responses: () => ({
    200: { description: 'The show with its episodes', data: showResponses().ShowDetail },
    404: showNotFound,
  }),
});

export const getTvShow = /* @__PURE__ */ contract({
  operationId: 'getTvShow',
  method: 'GET',
  path: '/tv/v3/shows/{id}',
  handler: 'shows/get-tv-show',
  needs: ['media-signer'],
  dynamo: { actions: ['GetItem', 'Query'], indexes: ['GSI2'] },
  auth: 'optional',
  tag,
  summary: 'TV show detail: seasons with episodes, lock state and gating context',
  description:
    "A show by id or slug for TV apps: its seasons in order, each with its episodes' full metadata, lock state and gating context (what unlocking requires and its price). With a valid token, premium episodes of creators the caller is subscribed to are unlocked; without one, only free episodes play.",
  request: { path: showPath },
  responses: () => ({
    200: { description: 'The show with seasons of gated episodes', data: showResponses().TvShowDetail },
    404: showNotFound,
  }),
});

export const showContracts = [
  listShows,
  listNewReleases,
  listFeaturedShows,
  searchShows,
  listShowCategories,
  listRatings,
  listTopCategories,
  listMostViewedEpisodes,
  getShow,
  getTvShow,
] as const;
