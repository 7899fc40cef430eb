import * as z from 'zod/mini';
import { contract } from '../../shared/http/contract.ts';
import {
  listShowsQuery,
  categoryPageQuery10,
  searchShowsQuery,
  showPath,
} from '../../shared/shows/schemas.ts';

const tag = 'Shows';

export const listShows = contract({
  operationId: 'listShows',
  method: 'GET',
  path: '/shows',
  handler: 'shows/list-shows',
  dynamo: { actions: ['BatchGetItem'] },
  auth: 'none',
  tag,
  summary: 'List shows with category/section/rating/new/featured filters and sorting',
  description: 'List shows with category/section/rating/new/featured filters and sorting',
  request: { query: listShowsQuery },
  responses: {
    200: { description: 'Success', data: z.unknown(), meta: z.unknown() },
  },
});

export const listNewReleases = contract({
  operationId: 'listNewReleases',
  method: 'GET',
  path: '/shows/new-releases',
  handler: 'shows/list-new-releases',
  dynamo: { actions: ['BatchGetItem'] },
  auth: 'none',
  tag,
  summary: 'New releases, newest first',
  description: 'New releases, newest first',
  request: { query: categoryPageQuery10 },
  responses: {
    200: { description: 'Success', data: z.unknown(), meta: z.unknown() },
  },
});

export const listFeaturedShows = contract({
  operationId: 'listFeaturedShows',
  method: 'GET',
  path: '/shows/featured',
  handler: 'shows/list-featured-shows',
  dynamo: { actions: ['BatchGetItem'] },
  auth: 'none',
  tag,
  summary: 'Featured shows, most popular first',
  description: 'Featured shows, most popular first',
  request: { query: categoryPageQuery10 },
  responses: {
    200: { description: 'Success', data: z.unknown(), meta: z.unknown() },
  },
});

export const searchShows = contract({
  operationId: 'searchShows',
  method: 'GET',
  path: '/shows/search',
  handler: 'shows/search-shows',
  dynamo: { actions: ['BatchGetItem', 'Query'] },
  auth: 'none',
  tag,
  summary: 'Search shows by title (prefix and one-typo tolerant)',
  description: 'Search shows by title (prefix and one-typo tolerant)',
  request: { query: searchShowsQuery },
  responses: {
    200: { description: 'Success', data: z.unknown(), meta: z.unknown() },
  },
});

export const listShowCategories = contract({
  operationId: 'listShowCategories',
  method: 'GET',
  path: '/shows/categories',
  handler: 'shows/list-show-categories',
  dynamo: { actions: ['BatchGetItem'] },
  auth: 'none',
  tag,
  summary: 'Show categories with show counts',
  description: 'Show categories with show counts',
  responses: {
    200: { description: 'Success', data: z.unknown() },
  },
});

export const listRatings = contract({
  operationId: 'listRatings',
  method: 'GET',
  path: '/shows/ratings',
  handler: 'shows/list-ratings',
  auth: 'none',
  tag,
  summary: 'Content ratings',
  description: 'Content ratings',
  responses: {
    200: { description: 'Success', data: z.unknown() },
  },
});

export const listTopCategories = contract({
  operationId: 'listTopCategories',
  method: 'GET',
  path: '/shows/categories-top',
  handler: 'shows/list-top-categories',
  dynamo: { actions: ['BatchGetItem'] },
  auth: 'none',
  tag,
  summary: 'Top categories with their most popular shows',
  description: 'Top categories with their most popular shows',
  responses: {
    200: { description: 'Success', data: z.unknown() },
  },
});

export const listMostViewedEpisodes = contract({
  operationId: 'listMostViewedEpisodes',
  method: 'GET',
  path: '/shows/episodes/most-viewed',
  handler: 'shows/list-most-viewed-episodes',
  dynamo: { actions: ['BatchGetItem'] },
  auth: 'none',
  tag,
  summary: 'Most viewed episodes',
  description: 'Most viewed episodes',
  request: { query: categoryPageQuery10 },
  responses: {
    200: { description: 'Success', data: z.unknown(), meta: z.unknown() },
  },
});

export const getShow = contract({
  operationId: 'getShow',
  method: 'GET',
  path: '/shows/{id}',
  handler: 'shows/get-show',
  dynamo: { actions: ['GetItem', 'Query'], indexes: ['GSI2'] },
  auth: 'none',
  tag,
  summary: 'Show detail with its episodes (by id or slug)',
  description: 'Show detail with its episodes (by id or slug)',
  request: { path: showPath },
  responses: {
    200: { description: 'Success', data: z.unknown() },
  },
});

export const getTvShow = contract({
  operationId: 'getTvShow',
  method: 'GET',
  path: '/tv/v3/shows/{id}',
  handler: 'shows/get-tv-show',
  dynamo: { actions: ['BatchGetItem', 'GetItem', 'Query'], indexes: ['GSI2'] },
  auth: 'optional',
  tag,
  summary: 'TV show detail: seasons with episodes, lock state and gating context',
  description: 'TV show detail: seasons with episodes, lock state and gating context',
  request: { path: showPath },
  responses: {
    200: { description: 'Success', data: z.unknown() },
  },
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
