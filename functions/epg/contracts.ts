import * as z from 'zod/mini';
import { contract } from '../../shared/http/contract.ts';
import {
  channelPath,
  scheduleQuery,
  timezoneQuery,
  upcomingQuery,
  guideQuery,
} from '../../shared/epg/schemas.ts';

const tag = 'EPG';
const base = {
  auth: 'none',
  tag,
} as const;

export const getChannelSchedule = contract({
  operationId: 'getChannelSchedule',
  ...base,
  method: 'GET',
  path: '/creators/{id}/channel/schedule',
  handler: 'epg/get-channel-schedule',
  dynamo: { actions: ['GetItem', 'Query'], indexes: ['GSI1'] },
  summary: "A channel's day schedule in a timezone, with timeline",
  description: "A channel's day schedule in a timezone, with timeline",
  request: { path: channelPath, query: scheduleQuery },
  responses: {
    200: { description: 'Success', data: z.unknown() },
  },
});

export const getCurrentProgram = contract({
  operationId: 'getCurrentProgram',
  ...base,
  method: 'GET',
  path: '/creators/{id}/channel/schedule/current',
  handler: 'epg/get-current-program',
  dynamo: { actions: ['GetItem', 'Query'], indexes: ['GSI1'] },
  summary: 'The program on air now and the next one',
  description: 'The program on air now and the next one',
  request: { path: channelPath, query: timezoneQuery },
  responses: {
    200: { description: 'Success', data: z.unknown() },
  },
});

export const listUpcomingPrograms = contract({
  operationId: 'listUpcomingPrograms',
  ...base,
  method: 'GET',
  path: '/creators/{id}/channel/schedule/upcoming',
  handler: 'epg/list-upcoming-programs',
  dynamo: { actions: ['GetItem', 'Query'], indexes: ['GSI1'] },
  summary: 'The next programs (default 5)',
  description: 'The next programs (default 5)',
  request: { path: channelPath, query: upcomingQuery(5) },
  responses: {
    200: { description: 'Success', data: z.unknown() },
  },
});

export const getLiveEpg = contract({
  operationId: 'getLiveEpg',
  ...base,
  method: 'GET',
  path: '/creators/{id}/channel/live/epg',
  handler: 'epg/get-live-epg',
  dynamo: { actions: ['GetItem', 'Query'], indexes: ['GSI1'] },
  summary: 'Compact schedule for the live player',
  description: 'Compact schedule for the live player',
  request: { path: channelPath, query: scheduleQuery },
  responses: {
    200: { description: 'Success', data: z.unknown() },
  },
});

export const getLiveEpgCurrent = contract({
  operationId: 'getLiveEpgCurrent',
  ...base,
  method: 'GET',
  path: '/creators/{id}/channel/live/epg/current',
  handler: 'epg/get-live-epg-current',
  dynamo: { actions: ['GetItem', 'Query'], indexes: ['GSI1'] },
  summary: 'Current program (with description) and next, for the live player',
  description: 'Current program (with description) and next, for the live player',
  request: { path: channelPath, query: timezoneQuery },
  responses: {
    200: { description: 'Success', data: z.unknown() },
  },
});

export const listLiveEpgNext = contract({
  operationId: 'listLiveEpgNext',
  ...base,
  method: 'GET',
  path: '/creators/{id}/channel/live/epg/next',
  handler: 'epg/list-live-epg-next',
  dynamo: { actions: ['GetItem', 'Query'], indexes: ['GSI1'] },
  summary: 'The next programs for the live player (default 3)',
  description: 'The next programs for the live player (default 3)',
  request: { path: channelPath, query: upcomingQuery(3) },
  responses: {
    200: { description: 'Success', data: z.unknown() },
  },
});

export const getGuideSchedule = contract({
  operationId: 'getGuideSchedule',
  ...base,
  method: 'GET',
  path: '/tv/v3/guide/schedule',
  handler: 'epg/get-guide-schedule',
  dynamo: { actions: ['BatchGetItem', 'Query'], indexes: ['GSI2'] },
  summary: 'Multi-channel TV guide grid (filters: channel_id, date, hours)',
  description: 'Multi-channel TV guide grid (filters: channel_id, date, hours)',
  request: { query: guideQuery },
  responses: {
    200: { description: 'Success', data: z.unknown(), meta: z.unknown() },
  },
});

export const getChannelEpg = contract({
  operationId: 'getChannelEpg',
  ...base,
  method: 'GET',
  path: '/channels/{id}/epg',
  handler: 'epg/get-channel-epg',
  dynamo: { actions: ['Query'], indexes: ['GSI2'] },
  summary: "A channel's schedule by channel id (creator detail channel guide)",
  description: "A channel's schedule by channel id (creator detail channel guide)",
  request: { path: channelPath, query: scheduleQuery },
  responses: {
    200: { description: 'Success', data: z.unknown() },
  },
});

export const epgContracts = [
  getChannelSchedule,
  getCurrentProgram,
  listUpcomingPrograms,
  getLiveEpg,
  getLiveEpgCurrent,
  listLiveEpgNext,
  getGuideSchedule,
  getChannelEpg,
] as const;
