import * as z from 'zod/mini';
import { listLiveStreamsQuery, homeResponses } from '../../shared/home/schemas.ts';
import { contract } from '../../shared/http/contract.ts';
import { Pagination } from '../../shared/pagination.ts';

const tag = 'Home';

export const getHome = /* @__PURE__ */ contract({
  operationId: 'getHome',
  method: 'GET',
  path: '/home',
  handler: 'home/get-home',
  dynamo: { actions: ['GetItem'] },
  auth: 'optional',
  tag,
  summary: 'Home screen: ordered sections from the stored layout (plus Continue Watching when signed in)',
  description:
    'The home screen as ordered sections, each naming the endpoint (`path`) that fills it. The layout is stored configuration (editable without a deployment); with a valid bearer token a `continue_watching` section follows the hero, and positions are renumbered from 1. Answers 503 while no layout is stored.',
  responses: () => ({
    200: { description: 'The sections, in position order', data: z.array(homeResponses().HomeSection) },
  }),
});

export const getHero = /* @__PURE__ */ contract({
  operationId: 'getHero',
  method: 'GET',
  path: '/home/hero',
  handler: 'home/get-hero',
  needs: ['media-signer'],
  dynamo: { actions: ['BatchGetItem', 'Query'] },
  auth: 'none',
  tag,
  summary: 'Hero carousel slides',
  description:
    "Slides of the home hero carousel: the most popular featured shows (up to 5), each played from its first episode; shows without episodes are skipped. Public: entitlements are an anonymous viewer's, so only free first episodes carry a `stream_url`.",
  responses: () => ({
    200: { description: 'The hero slides, most popular first', data: z.array(homeResponses().HeroSlide) },
  }),
});

export const listLiveStreams = /* @__PURE__ */ contract({
  operationId: 'listLiveStreams',
  method: 'GET',
  path: '/home/live',
  handler: 'home/list-live-streams',
  dynamo: { actions: ['BatchGetItem', 'Query'] },
  auth: 'none',
  tag,
  summary: 'Streams of creators live now',
  description:
    'A page of the streams live now, most watched first, each with its creator. Stream URLs are tokenless references (a playable URL comes from the live watch endpoints). Public; the same creators in the same order as `GET /creators/live`.',
  request: { query: listLiveStreamsQuery },
  responses: () => ({
    200: {
      description: 'A page of live streams',
      data: z.array(homeResponses().HomeLiveStream),
      meta: Pagination,
    },
  }),
});

export const homeContracts = [getHome, getHero, listLiveStreams] as const;
