import * as z from 'zod/mini';
import { contract } from '../../shared/http/contract.ts';
import {
  videoStartBody,
  videoHeartbeatBody,
  videoEventsBody,
  videoQualityBody,
  videoErrorBody,
  videoAdsBody,
  videoEndBody,
  liveStartBody,
  liveHeartbeatBody,
  liveEventsBody,
  liveEndBody,
} from '../../shared/analytics/schemas.ts';
import { pageQuery } from '../../shared/http/validation.ts';

const tag = 'Analytics';
const sink = { auth: 'optional', needs: ['analytics-sink'], tag } as const;

const listContinueWatchingQuery = z.object({ limit: pageQuery(20).limit });

export const startVideoSession = contract({
  operationId: 'startVideoSession',
  ...sink,
  method: 'POST',
  path: '/analytics/video/session/start',
  handler: 'analytics/start-video-session',
  summary: 'Start an on-demand analytics session (returns its id and the heartbeat interval)',
  description: 'Start an on-demand analytics session (returns its id and the heartbeat interval)',
  request: { body: videoStartBody },
  responses: {
    201: { description: 'Created', data: z.unknown() },
  },
});

export const recordVideoHeartbeat = contract({
  operationId: 'recordVideoHeartbeat',
  ...sink,
  method: 'POST',
  path: '/analytics/video/session/heartbeat',
  handler: 'analytics/record-video-heartbeat',
  dynamo: { actions: ['DeleteItem', 'PutItem'], indexes: ['GSI3'] },
  summary: 'On-demand heartbeat every 30 s (playhead, playing and rebuffer time)',
  description: 'On-demand heartbeat every 30 s (playhead, playing and rebuffer time)',
  request: { body: videoHeartbeatBody },
  responses: {
    200: { description: 'Success', data: z.unknown() },
  },
});

export const recordVideoEvents = contract({
  operationId: 'recordVideoEvents',
  ...sink,
  method: 'POST',
  path: '/analytics/video/events',
  handler: 'analytics/record-video-events',
  summary: 'A batch (≤100) of player events: play, pause, seek, rebuffer, ended…',
  description: 'A batch (≤100) of player events: play, pause, seek, rebuffer, ended…',
  request: { body: videoEventsBody },
  responses: {
    200: { description: 'Success', data: z.unknown() },
  },
});

export const recordVideoQuality = contract({
  operationId: 'recordVideoQuality',
  ...sink,
  method: 'POST',
  path: '/analytics/video/quality',
  handler: 'analytics/record-video-quality',
  summary: 'A rendition change (bitrate, width, height)',
  description: 'A rendition change (bitrate, width, height)',
  request: { body: videoQualityBody },
  responses: {
    200: { description: 'Success', data: z.unknown() },
  },
});

export const recordVideoError = contract({
  operationId: 'recordVideoError',
  ...sink,
  method: 'POST',
  path: '/analytics/video/error',
  handler: 'analytics/record-video-error',
  summary: 'A player error (code, message, fatal)',
  description: 'A player error (code, message, fatal)',
  request: { body: videoErrorBody },
  responses: {
    200: { description: 'Success', data: z.unknown() },
  },
});

export const recordVideoAds = contract({
  operationId: 'recordVideoAds',
  ...sink,
  method: 'POST',
  path: '/analytics/video/ads',
  handler: 'analytics/record-video-ads',
  summary: 'A batch (≤100) of ad events',
  description: 'A batch (≤100) of ad events',
  request: { body: videoAdsBody },
  responses: {
    200: { description: 'Success', data: z.unknown() },
  },
});

export const endVideoSession = contract({
  operationId: 'endVideoSession',
  ...sink,
  method: 'POST',
  path: '/analytics/video/session/end',
  handler: 'analytics/end-video-session',
  dynamo: { actions: ['DeleteItem', 'PutItem'], indexes: ['GSI3'] },
  summary: 'End an on-demand analytics session',
  description: 'End an on-demand analytics session',
  request: { body: videoEndBody },
  responses: {
    200: { description: 'Success', data: z.unknown() },
  },
});

export const startLiveSession = contract({
  operationId: 'startLiveSession',
  ...sink,
  method: 'POST',
  path: '/analytics/live/session/start',
  handler: 'analytics/start-live-session',
  summary: 'Start a live analytics session',
  description: 'Start a live analytics session',
  request: { body: liveStartBody },
  responses: {
    201: { description: 'Created', data: z.unknown() },
  },
});

export const recordLiveHeartbeat = contract({
  operationId: 'recordLiveHeartbeat',
  ...sink,
  method: 'POST',
  path: '/analytics/live/session/heartbeat',
  handler: 'analytics/record-live-heartbeat',
  summary: 'Live heartbeat every 30 s',
  description: 'Live heartbeat every 30 s',
  request: { body: liveHeartbeatBody },
  responses: {
    200: { description: 'Success', data: z.unknown() },
  },
});

export const recordLiveEvents = contract({
  operationId: 'recordLiveEvents',
  ...sink,
  method: 'POST',
  path: '/analytics/live/events',
  handler: 'analytics/record-live-events',
  summary: 'A batch (≤100) of live events: player events, reactions, EPG changes',
  description: 'A batch (≤100) of live events: player events, reactions, EPG changes',
  request: { body: liveEventsBody },
  responses: {
    200: { description: 'Success', data: z.unknown() },
  },
});

export const endLiveSession = contract({
  operationId: 'endLiveSession',
  ...sink,
  method: 'POST',
  path: '/analytics/live/session/end',
  handler: 'analytics/end-live-session',
  summary: 'End a live analytics session',
  description: 'End a live analytics session',
  request: { body: liveEndBody },
  responses: {
    200: { description: 'Success', data: z.unknown() },
  },
});

export const listContinueWatching = contract({
  operationId: 'listContinueWatching',
  tag,
  method: 'GET',
  path: '/me/continue-watching',
  handler: 'analytics/list-continue-watching',
  dynamo: { actions: [], indexes: ['GSI3'] },
  auth: 'required',
  summary: 'Unfinished episodes the caller watched, most recent first',
  description: 'Unfinished episodes the caller watched, most recent first',
  request: { query: listContinueWatchingQuery },
  responses: {
    200: { description: 'Success', data: z.unknown() },
  },
});

export const analyticsContracts = [
  startVideoSession,
  recordVideoHeartbeat,
  recordVideoEvents,
  recordVideoQuality,
  recordVideoError,
  recordVideoAds,
  endVideoSession,
  startLiveSession,
  recordLiveHeartbeat,
  recordLiveEvents,
  endLiveSession,
  listContinueWatching,
] as const;
