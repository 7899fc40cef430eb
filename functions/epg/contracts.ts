import {
  channelIdPath,
  channelPath,
  guideQuery,
  scheduleQuery,
  timezoneQuery,
  upcomingQuery,
  epgResponses,
} from '../../shared/epg/schemas.ts';
import { contract } from '../../shared/http/contract.ts';
import { Pagination } from '../../shared/pagination.ts';

const tag = 'EPG';
const base = {
  auth: 'none',
  tag,
} as const;

const creatorNotFound = {
  description: 'No creator has this id or slug',
  message: 'Creator not found',
} as const;
const channelNotFound = {
  description: 'No channel has this id',
  message: 'Channel not found',
} as const;

export const getChannelSchedule = /* @__PURE__ */ (() =>
  contract({
    operationId: 'getChannelSchedule',
    ...base,
    method: 'GET',
    path: '/creators/{id}/channel/schedule',
    handler: 'epg/get-channel-schedule',
    dynamo: { actions: ['GetItem', 'Query'], indexes: ['GSI1'] },
    summary: "A channel's day schedule in a timezone, with timeline",
    description:
      "A creator's channel over one day in a time zone (default: today in UTC), or the `from`-`to` wall-clock window of it: full program objects with times in that zone, and the timeline of 30-minute slots (a daylight-saving day has 46 or 50). Public: no token.",
    request: { path: channelPath, query: scheduleQuery },
    responses: () => ({
      200: { description: "The channel's schedule for the day", data: epgResponses().ChannelSchedule },
      404: creatorNotFound,
    }),
  }))();

export const getCurrentProgram = /* @__PURE__ */ (() =>
  contract({
    operationId: 'getCurrentProgram',
    ...base,
    method: 'GET',
    path: '/creators/{id}/channel/schedule/current',
    handler: 'epg/get-current-program',
    dynamo: { actions: ['GetItem', 'Query'], indexes: ['GSI1'] },
    summary: 'The program on air now and the next one',
    description:
      "The program on air now on a creator's channel (with its progress) and the next one, times in the requested time zone, with the creator's live state. Either may be null in a gap of the schedule. Public: no token.",
    request: { path: channelPath, query: timezoneQuery },
    responses: () => ({
      200: { description: 'The program on air and the next one', data: epgResponses().CurrentSchedule },
      404: creatorNotFound,
    }),
  }))();

export const listUpcomingPrograms = /* @__PURE__ */ (() =>
  contract({
    operationId: 'listUpcomingPrograms',
    ...base,
    method: 'GET',
    path: '/creators/{id}/channel/schedule/upcoming',
    handler: 'epg/list-upcoming-programs',
    dynamo: { actions: ['GetItem', 'Query'], indexes: ['GSI1'] },
    summary: 'The next programs (default 5)',
    description:
      "The next programs to start on a creator's channel (the one on air excluded), in start order, as full program objects in the requested time zone. Public: no token.",
    request: { path: channelPath, query: upcomingQuery(5) },
    responses: () => ({
      200: { description: 'The next programs', data: epgResponses().UpcomingPrograms },
      404: creatorNotFound,
    }),
  }))();

export const getLiveEpg = /* @__PURE__ */ (() =>
  contract({
    operationId: 'getLiveEpg',
    ...base,
    method: 'GET',
    path: '/creators/{id}/channel/live/epg',
    handler: 'epg/get-live-epg',
    dynamo: { actions: ['GetItem', 'Query'], indexes: ['GSI1'] },
    summary: 'Compact schedule for the live player',
    description:
      "The live player's compact guide of a creator's channel over one day (or a window of it) in a time zone: one short row per program with its progress bar, and the timeline. Public: no token.",
    request: { path: channelPath, query: scheduleQuery },
    responses: () => ({
      200: { description: "The channel's compact day guide", data: epgResponses().LiveEpg },
      404: creatorNotFound,
    }),
  }))();

export const getLiveEpgCurrent = /* @__PURE__ */ (() =>
  contract({
    operationId: 'getLiveEpgCurrent',
    ...base,
    method: 'GET',
    path: '/creators/{id}/channel/live/epg/current',
    handler: 'epg/get-live-epg-current',
    dynamo: { actions: ['GetItem', 'Query'], indexes: ['GSI1'] },
    summary: 'Current program (with description) and next, for the live player',
    description:
      "For the live player: the program on air on a creator's channel, with its description and progress, and the next one, times in the requested time zone, with the live state. Either may be null in a gap of the schedule. Public: no token.",
    request: { path: channelPath, query: timezoneQuery },
    responses: () => ({
      200: { description: 'The program on air and the next one', data: epgResponses().LiveEpgCurrent },
      404: creatorNotFound,
    }),
  }))();

export const listLiveEpgNext = /* @__PURE__ */ (() =>
  contract({
    operationId: 'listLiveEpgNext',
    ...base,
    method: 'GET',
    path: '/creators/{id}/channel/live/epg/next',
    handler: 'epg/list-live-epg-next',
    dynamo: { actions: ['GetItem', 'Query'], indexes: ['GSI1'] },
    summary: 'The next programs for the live player (default 3)',
    description:
      "For the live player: the next programs to start on a creator's channel (the one on air excluded), in start order, times in the requested time zone. Public: no token.",
    request: { path: channelPath, query: upcomingQuery(3) },
    responses: () => ({
      200: { description: 'The next programs', data: epgResponses().LiveEpgNext },
      404: creatorNotFound,
    }),
  }))();

export const getGuideSchedule = /* @__PURE__ */ (() =>
  contract({
    operationId: 'getGuideSchedule',
    ...base,
    method: 'GET',
    path: '/tv/v3/guide/schedule',
    handler: 'epg/get-guide-schedule',
    dynamo: { actions: ['BatchGetItem', 'Query'], indexes: ['GSI2'] },
    summary: 'Multi-channel TV guide grid (filters: channel_id, date, hours)',
    description:
      'The TV guide grid: channels in channel-number order (paginated over channels), each with its live state and the programs overlapping the window. The window is a calendar day in `timezone` (its first `hours` if given) with `date`, else `hours` (default 3) from the current half hour. `channel_id` narrows it to one channel.',
    request: { query: guideQuery },
    responses: () => ({
      200: {
        description: 'A page of channels with their programs',
        data: epgResponses().GuideSchedule,
        meta: Pagination,
      },
      404: {
        description: '`channel_id` names no channel',
        message: 'Channel not found',
      },
    }),
  }))();

export const getChannelEpg = /* @__PURE__ */ (() =>
  contract({
    operationId: 'getChannelEpg',
    ...base,
    method: 'GET',
    path: '/channels/{id}/epg',
    handler: 'epg/get-channel-epg',
    dynamo: { actions: ['Query'], indexes: ['GSI2'] },
    summary: "A channel's schedule by channel id (creator detail channel guide)",
    description:
      "The same day schedule as `/creators/{id}/channel/schedule`, addressed by channel id, with the creator's id and live state, so the creator detail's channel guide needs one call. Public: no token.",
    request: { path: channelIdPath, query: scheduleQuery },
    responses: () => ({
      200: { description: "The channel's schedule for the day", data: epgResponses().ChannelEpg },
      404: channelNotFound,
    }),
  }))();

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
