import type { RouteRow } from '../../shared/http/route.ts';

const tag = 'EPG';
const base = {
  auth: 'none',
  tag,
} as const;

export const epgRoutes: RouteRow[] = [
  {
    ...base,
    method: 'GET',
    path: '/creators/{id}/channel/schedule',
    handler: 'epg/get-channel-schedule',
    dynamo: { actions: ['GetItem', 'Query'], indexes: ['GSI1'] },
    summary: "A channel's day schedule in a timezone, with timeline",
  },
  {
    ...base,
    method: 'GET',
    path: '/creators/{id}/channel/schedule/current',
    handler: 'epg/get-current-program',
    dynamo: { actions: ['GetItem', 'Query'], indexes: ['GSI1'] },
    summary: 'The program on air now and the next one',
  },
  {
    ...base,
    method: 'GET',
    path: '/creators/{id}/channel/schedule/upcoming',
    handler: 'epg/list-upcoming-programs',
    dynamo: { actions: ['GetItem', 'Query'], indexes: ['GSI1'] },
    summary: 'The next programs (default 5)',
  },
  {
    ...base,
    method: 'GET',
    path: '/creators/{id}/channel/live/epg',
    handler: 'epg/get-live-epg',
    dynamo: { actions: ['GetItem', 'Query'], indexes: ['GSI1'] },
    summary: 'Compact schedule for the live player',
  },
  {
    ...base,
    method: 'GET',
    path: '/creators/{id}/channel/live/epg/current',
    handler: 'epg/get-live-epg-current',
    dynamo: { actions: ['GetItem', 'Query'], indexes: ['GSI1'] },
    summary: 'Current program (with description) and next, for the live player',
  },
  {
    ...base,
    method: 'GET',
    path: '/creators/{id}/channel/live/epg/next',
    handler: 'epg/list-live-epg-next',
    dynamo: { actions: ['GetItem', 'Query'], indexes: ['GSI1'] },
    summary: 'The next programs for the live player (default 3)',
  },
  {
    ...base,
    method: 'GET',
    path: '/tv/v3/guide/schedule',
    handler: 'epg/get-guide-schedule',
    dynamo: { actions: ['BatchGetItem', 'Query'], indexes: ['GSI2'] },
    summary: 'Multi-channel TV guide grid (filters: channel_id, date, hours)',
  },
  {
    ...base,
    method: 'GET',
    path: '/channels/{id}/epg',
    handler: 'epg/get-channel-epg',
    dynamo: { actions: ['Query'], indexes: ['GSI2'] },
    summary: "A channel's schedule by channel id (creator detail channel guide)",
  },
];
