import * as z from 'zod/mini';
import {
  creatorPath,
  listCreatorsQuery,
  pagedQuery10,
  searchCreatorsQuery,
  creatorResponses,
} from '../../shared/creators/schemas.ts';
import { contract } from '../../shared/http/contract.ts';
import { Pagination } from '../../shared/pagination.ts';
import { seriesQuery, showResponses } from '../../shared/shows/schemas.ts';

const tag = 'Creators';

export const listCreators = /* @__PURE__ */ contract({
  operationId: 'listCreators',
  method: 'GET',
  path: '/creators',
  handler: 'creators/list-creators',
  dynamo: { actions: ['BatchGetItem', 'Query'] },
  auth: 'none',
  tag,
  summary: 'List creators with category/tier filters and sorting',
  description:
    'A page of public creators, filtered by category and tier and sorted. Live creators carry their viewer count; `meta_data` echoes the filters applied.',
  request: { query: listCreatorsQuery },
  responses: () => ({
    200: {
      description: 'A page of creators',
      data: creatorResponses().CreatorList,
      meta: creatorResponses().CreatorListMeta,
    },
  }),
});

export const listLiveCreators = /* @__PURE__ */ contract({
  operationId: 'listLiveCreators',
  method: 'GET',
  path: '/creators/live',
  handler: 'creators/list-live-creators',
  dynamo: { actions: ['BatchGetItem', 'Query'] },
  auth: 'none',
  tag,
  summary: 'Creators live now, with their stream',
  description:
    'A page of the creators live now, most watched first, each with the stream they are live with (a summary without category, subscribers and is_hot). `meta_data` carries the standard pagination plus `total_live` for older clients. Public.',
  request: { query: pagedQuery10 },
  responses: () => ({
    200: {
      description: 'A page of live creators with their streams',
      data: creatorResponses().LiveCreatorList,
      meta: creatorResponses().LiveCreatorListMeta,
    },
  }),
});

export const listFeaturedCreators = /* @__PURE__ */ contract({
  operationId: 'listFeaturedCreators',
  method: 'GET',
  path: '/creators/featured',
  handler: 'creators/list-featured-creators',
  dynamo: { actions: ['BatchGetItem', 'Query'] },
  auth: 'none',
  tag,
  summary: 'Featured creators',
  description:
    'A page of the editorially featured creators, most subscribers first, with the same shape as `GET /creators`; `filters_applied` is always all/all/most_popular. Public.',
  request: { query: pagedQuery10 },
  responses: () => ({
    200: {
      description: 'A page of featured creators',
      data: creatorResponses().CreatorList,
      meta: creatorResponses().CreatorListMeta,
    },
  }),
});

export const searchCreators = /* @__PURE__ */ contract({
  operationId: 'searchCreators',
  method: 'GET',
  path: '/creators/search',
  handler: 'creators/search-creators',
  // Query: the search index; its items carry the page's cards (docs/search.md).
  dynamo: { actions: ['Query'] },
  auth: 'none',
  tag,
  summary: 'Search creators by name or handle',
  description:
    'Creators whose name or handle matches `q` (case- and accent-insensitive, word prefixes, one typo tolerated), best match first, optionally filtered by category and tier. Items omit is_hot and the viewer counts; `meta_data` echoes the query; reads a bounded number of the best matches, so `meta_data.total_relation` says whether `total` is exact (`eq`) or a lower bound (`gte`). No match is an empty page, not an error. Public.',
  request: { query: searchCreatorsQuery },
  responses: () => ({
    200: {
      description: 'A page of matching creators',
      data: creatorResponses().SearchCreatorList,
      meta: creatorResponses().SearchCreatorListMeta,
    },
  }),
});

export const listTiers = /* @__PURE__ */ contract({
  operationId: 'listTiers',
  method: 'GET',
  path: '/creators/tiers',
  handler: 'creators/list-tiers',
  auth: 'none',
  tag,
  summary: 'Creator tiers',
  description: 'The creator tiers, highest first, for the tier filter of the creator lists.',
  responses: () => ({
    200: { description: 'The tiers', data: z.array(creatorResponses().Tier) },
  }),
});

export const listCategories = /* @__PURE__ */ contract({
  operationId: 'listCategories',
  method: 'GET',
  path: '/categories',
  handler: 'creators/list-categories',
  dynamo: { actions: ['BatchGetItem'] },
  auth: 'none',
  tag,
  summary: 'Creator categories with creator counts',
  description:
    'Every creator category, in the reference order, with its label, icon and how many creators it holds (0 for an empty one). Public; for the category filter of the creator lists.',
  responses: () => ({
    200: {
      description: 'The categories with their creator counts',
      data: z.array(creatorResponses().CreatorCategory),
    },
  }),
});

export const getCreator = /* @__PURE__ */ contract({
  operationId: 'getCreator',
  method: 'GET',
  path: '/creators/{id}',
  handler: 'creators/get-creator',
  dynamo: { actions: ['GetItem', 'Query'], indexes: ['GSI1'] },
  auth: 'optional',
  tag,
  summary: 'Creator detail as an array of typed blocks',
  description:
    "A creator page as an array of blocks to render by `type` (spec 2.4), found by creator id or slug. Show blocks are left out when the creator has no such content. With a valid bearer token the user and subscribe_banner blocks carry the caller's follow and subscription state; without one they are false/null.",
  request: { path: creatorPath },
  responses: () => ({
    200: { description: 'The creator page blocks, in render order', data: creatorResponses().CreatorDetail },
    404: { description: 'No creator has this id or slug', message: 'Creator not found' },
  }),
});

export const getTvCreator = /* @__PURE__ */ contract({
  operationId: 'getTvCreator',
  method: 'GET',
  path: '/tv/v3/creators/{id}',
  handler: 'creators/get-tv-creator',
  dynamo: { actions: ['GetItem', 'Query'], indexes: ['GSI1'] },
  auth: 'optional',
  tag,
  summary: 'TV creator detail with channels and current/next programs',
  description:
    "The TV apps' creator page: the same blocks as `GET /creators/{id}` plus `is_live` and the creator's channel with the programme on air now and the next one (times in UTC). A valid bearer token fills in the caller's follow and subscription state.",
  request: { path: creatorPath },
  responses: () => ({
    200: { description: 'The creator page with its channel', data: creatorResponses().TvCreatorDetail },
    404: { description: 'No creator has this id or slug', message: 'Creator not found' },
  }),
});

export const listCreatorSeries = /* @__PURE__ */ contract({
  operationId: 'listCreatorSeries',
  method: 'GET',
  path: '/tv/v3/creators/{id}/series',
  handler: 'creators/list-creator-series',
  needs: ['media-signer'],
  dynamo: { actions: ['GetItem'], indexes: ['GSI1'] },
  auth: 'none',
  tag,
  summary: "A creator's series with seasons and episodes (paginated)",
  description:
    "A page of a creator's series (found by creator id or slug), each with its seasons and every episode's full metadata, access badges and gating context. Public: entitlements are an anonymous viewer's, so only free episodes carry a `stream_url`. Pagination is in `meta_data`, the series in `data.items`.",
  request: { path: creatorPath, query: seriesQuery },
  responses: () => ({
    200: {
      description: "A page of the creator's series",
      data: showResponses().CreatorSeriesList,
      meta: Pagination,
    },
    404: { description: 'No creator has this id or slug', message: 'Creator not found' },
  }),
});

export const creatorContracts = [
  listCreators,
  listLiveCreators,
  listFeaturedCreators,
  searchCreators,
  listTiers,
  listCategories,
  getCreator,
  getTvCreator,
  listCreatorSeries,
] as const;
