import * as z from 'zod/mini';
import { contract } from '../../shared/http/contract.ts';
import { pageQuery } from '../../shared/http/validation.ts';

const tag = 'Home';

const listLiveStreamsQuery = z.object({ ...pageQuery(10) });

export const getHome = contract({
  operationId: 'getHome',
  method: 'GET',
  path: '/home',
  handler: 'home/get-home',
  dynamo: { actions: ['GetItem'] },
  auth: 'optional',
  tag,
  summary: 'Home screen: ordered sections from the stored layout (plus Continue Watching when signed in)',
  description: 'Home screen: ordered sections from the stored layout (plus Continue Watching when signed in)',
  responses: {
    200: { description: 'Success', data: z.unknown() },
  },
});

export const getHero = contract({
  operationId: 'getHero',
  method: 'GET',
  path: '/home/hero',
  handler: 'home/get-hero',
  dynamo: { actions: ['BatchGetItem', 'Query'] },
  auth: 'none',
  tag,
  summary: 'Hero carousel slides',
  description: 'Hero carousel slides',
  responses: {
    200: { description: 'Success', data: z.unknown() },
  },
});

export const listLiveStreams = contract({
  operationId: 'listLiveStreams',
  method: 'GET',
  path: '/home/live',
  handler: 'home/list-live-streams',
  dynamo: { actions: ['BatchGetItem'] },
  auth: 'none',
  tag,
  summary: 'Streams of creators live now',
  description: 'Streams of creators live now',
  request: { query: listLiveStreamsQuery },
  responses: {
    200: { description: 'Success', data: z.unknown(), meta: z.unknown() },
  },
});

export const homeContracts = [getHome, getHero, listLiveStreams] as const;
