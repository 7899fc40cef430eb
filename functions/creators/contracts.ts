import * as z from 'zod/mini';
import { contract } from '../../shared/http/contract.ts';
import {
  CreatorList,
  CreatorListMeta,
  listCreatorsQuery,
  Tier,
  pagedQuery10,
  searchCreatorsQuery,
  creatorPath,
} from '../../shared/creators/schemas.ts';
import { seriesQuery, showPath } from '../../shared/shows/schemas.ts';

const tag = 'Creators';

export const listCreators = contract({
  operationId: 'listCreators',
  method: 'GET',
  path: '/creators',
  handler: 'creators/list-creators',
  dynamo: { actions: ['BatchGetItem'] },
  auth: 'none',
  tag,
  summary: 'List creators with category/tier filters and sorting',
  description:
    'A page of public creators, filtered by category and tier and sorted. Live creators carry their viewer count; `meta_data` echoes the filters applied.',
  request: { query: listCreatorsQuery },
  responses: {
    200: { description: 'A page of creators', data: CreatorList, meta: CreatorListMeta },
  },
});

export const listLiveCreators = contract({
  operationId: 'listLiveCreators',
  method: 'GET',
  path: '/creators/live',
  handler: 'creators/list-live-creators',
  dynamo: { actions: ['BatchGetItem'] },
  auth: 'none',
  tag,
  summary: 'Creators live now, with their stream',
  description: 'Creators live now, with their stream',
  request: { query: pagedQuery10 },
  responses: {
    200: { description: 'Success', data: z.unknown(), meta: z.unknown() },
  },
});

export const listFeaturedCreators = contract({
  operationId: 'listFeaturedCreators',
  method: 'GET',
  path: '/creators/featured',
  handler: 'creators/list-featured-creators',
  dynamo: { actions: ['BatchGetItem'] },
  auth: 'none',
  tag,
  summary: 'Featured creators',
  description: 'Featured creators',
  request: { query: pagedQuery10 },
  responses: {
    200: { description: 'Success', data: z.unknown(), meta: z.unknown() },
  },
});

export const searchCreators = contract({
  operationId: 'searchCreators',
  method: 'GET',
  path: '/creators/search',
  handler: 'creators/search-creators',
  dynamo: { actions: ['BatchGetItem', 'Query'] },
  auth: 'none',
  tag,
  summary: 'Search creators by name or handle',
  description: 'Search creators by name or handle',
  request: { query: searchCreatorsQuery },
  responses: {
    200: { description: 'Success', data: z.unknown(), meta: z.unknown() },
  },
});

export const listTiers = contract({
  operationId: 'listTiers',
  method: 'GET',
  path: '/creators/tiers',
  handler: 'creators/list-tiers',
  auth: 'none',
  tag,
  summary: 'Creator tiers',
  description: 'The creator tiers, highest first, for the tier filter of the creator lists.',
  responses: {
    200: { description: 'The tiers', data: z.array(Tier) },
  },
});

export const listCategories = contract({
  operationId: 'listCategories',
  method: 'GET',
  path: '/categories',
  handler: 'creators/list-categories',
  dynamo: { actions: ['BatchGetItem'] },
  auth: 'none',
  tag,
  summary: 'Creator categories with creator counts',
  description: 'Creator categories with creator counts',
  responses: {
    200: { description: 'Success', data: z.unknown() },
  },
});

export const getCreator = contract({
  operationId: 'getCreator',
  method: 'GET',
  path: '/creators/{id}',
  handler: 'creators/get-creator',
  dynamo: { actions: ['BatchGetItem', 'GetItem'], indexes: ['GSI1'] },
  auth: 'optional',
  tag,
  summary: 'Creator detail as an array of typed blocks',
  description: 'Creator detail as an array of typed blocks',
  request: { path: creatorPath },
  responses: {
    200: { description: 'Success', data: z.unknown() },
  },
});

export const getTvCreator = contract({
  operationId: 'getTvCreator',
  method: 'GET',
  path: '/tv/v3/creators/{id}',
  handler: 'creators/get-tv-creator',
  dynamo: { actions: ['BatchGetItem', 'GetItem', 'Query'], indexes: ['GSI1'] },
  auth: 'optional',
  tag,
  summary: 'TV creator detail with channels and current/next programs',
  description: 'TV creator detail with channels and current/next programs',
  request: { path: creatorPath },
  responses: {
    200: { description: 'Success', data: z.unknown() },
  },
});

export const listCreatorSeries = contract({
  operationId: 'listCreatorSeries',
  method: 'GET',
  path: '/tv/v3/creators/{id}/series',
  handler: 'creators/list-creator-series',
  dynamo: { actions: ['GetItem'], indexes: ['GSI1'] },
  auth: 'none',
  tag,
  summary: "A creator's series with seasons and episodes (paginated)",
  description: "A creator's series with seasons and episodes (paginated)",
  request: { path: showPath, query: seriesQuery },
  responses: {
    200: { description: 'Success', data: z.unknown(), meta: z.unknown() },
  },
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
