import type { RouteRow } from '../../shared/http/route.ts';

const tag = 'Analytics';
const sink = { auth: 'optional', needs: ['analytics-sink'], tag } as const;

export const analyticsRoutes: RouteRow[] = [
  {
    ...sink,
    method: 'POST',
    path: '/analytics/video/session/start',
    handler: 'analytics/start-video-session',
    summary: 'Start an on-demand analytics session (returns its id and the heartbeat interval)',
  },
  {
    ...sink,
    method: 'POST',
    path: '/analytics/video/session/heartbeat',
    handler: 'analytics/record-video-heartbeat',
    dynamo: { actions: ['DeleteItem', 'PutItem'], indexes: ['GSI3'] },
    summary: 'On-demand heartbeat every 30 s (playhead, playing and rebuffer time)',
  },
  {
    ...sink,
    method: 'POST',
    path: '/analytics/video/events',
    handler: 'analytics/record-video-events',
    summary: 'A batch (≤100) of player events: play, pause, seek, rebuffer, ended…',
  },
  {
    ...sink,
    method: 'POST',
    path: '/analytics/video/quality',
    handler: 'analytics/record-video-quality',
    summary: 'A rendition change (bitrate, width, height)',
  },
  {
    ...sink,
    method: 'POST',
    path: '/analytics/video/error',
    handler: 'analytics/record-video-error',
    summary: 'A player error (code, message, fatal)',
  },
  {
    ...sink,
    method: 'POST',
    path: '/analytics/video/ads',
    handler: 'analytics/record-video-ads',
    summary: 'A batch (≤100) of ad events',
  },
  {
    ...sink,
    method: 'POST',
    path: '/analytics/video/session/end',
    handler: 'analytics/end-video-session',
    dynamo: { actions: ['DeleteItem', 'PutItem'], indexes: ['GSI3'] },
    summary: 'End an on-demand analytics session',
  },
  {
    ...sink,
    method: 'POST',
    path: '/analytics/live/session/start',
    handler: 'analytics/start-live-session',
    summary: 'Start a live analytics session',
  },
  {
    ...sink,
    method: 'POST',
    path: '/analytics/live/session/heartbeat',
    handler: 'analytics/record-live-heartbeat',
    summary: 'Live heartbeat every 30 s',
  },
  {
    ...sink,
    method: 'POST',
    path: '/analytics/live/events',
    handler: 'analytics/record-live-events',
    summary: 'A batch (≤100) of live events: player events, reactions, EPG changes',
  },
  {
    ...sink,
    method: 'POST',
    path: '/analytics/live/session/end',
    handler: 'analytics/end-live-session',
    summary: 'End a live analytics session',
  },
  {
    tag,
    method: 'GET',
    path: '/me/continue-watching',
    handler: 'analytics/list-continue-watching',
    dynamo: { actions: [], indexes: ['GSI3'] },
    auth: 'required',
    summary: 'Unfinished episodes the caller watched, most recent first',
  },
];
