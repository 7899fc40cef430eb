import { contract } from '../../shared/http/contract.ts';
import {
  listContinueWatchingQuery,
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
  analyticsResponses,
} from '../../shared/analytics/schemas.ts';

const tag = 'Analytics';
/**
 * Budgets a real player stays far under (docs/analytics.md "Rate limits"): one player sends a
 * heartbeat every 30 s and a batch of events about as often, so 2-6 requests a minute per route.
 * Per account: 120 a minute per route (some 20 players at once on one account). Per IP address:
 * 600 a minute per route (a household, an office or a carrier NAT with ~100 players). API Gateway
 * caps each route at 1,000 requests a second across all clients before Lambda.
 */
const rateLimit = [
  { limit: 120, windowSeconds: 60, by: 'account' },
  { limit: 600, windowSeconds: 60, by: 'ip' },
] as const;
const sink = {
  auth: 'optional',
  // The pseudonym key: account ids are stored as keyed hashes (shared/analytics/pseudonym.ts).
  needs: ['analytics-sink', 'analytics-pseudonym'],
  tag,
  rateLimit,
  throttle: { rate: 1000, burst: 2000 },
} as const;

/** What every ingestion endpoint says about the bearer token, the client time and delivery. */
const SIGNED_IN =
  'A bearer token is optional: when a valid one is sent the events are attributed to its account.';
const DELIVERY =
  'The answer comes once the analytics store has the events; on a 503 some may be missing, so resend the request as is (events carrying an `event_id` are de-duplicated).';

const accepted = (what: string) => () => ({
  200: { description: `${what} recorded`, data: analyticsResponses().AnalyticsReceipt },
});
const started = () => ({
  201: {
    description: 'The session started: its id and the heartbeat interval',
    data: analyticsResponses().AnalyticsSession,
  },
});

export const startVideoSession = /* @__PURE__ */ (() =>
  contract({
    operationId: 'startVideoSession',
    ...sink,
    method: 'POST',
    path: '/analytics/video/session/start',
    handler: 'analytics/start-video-session',
    dynamo: { actions: ['PutItem'] },
    summary: 'Start an on-demand analytics session (returns its id and the heartbeat interval)',
    description: `Opens the analytics session of one on-demand playback and records its \`start\` event (counted as a view). The answer carries the \`session_id\` to send with every later event of this playback and the heartbeat interval (30 s). ${SIGNED_IN}`,
    request: { body: videoStartBody },
    responses: started,
  }))();

export const recordVideoHeartbeat = /* @__PURE__ */ (() =>
  contract({
    operationId: 'recordVideoHeartbeat',
    ...sink,
    method: 'POST',
    path: '/analytics/video/session/heartbeat',
    handler: 'analytics/record-video-heartbeat',
    dynamo: { actions: ['DeleteItem', 'PutItem', 'UpdateItem'], indexes: ['GSI3'] },
    summary: 'On-demand heartbeat every 30 s (playhead, playing and rebuffer time)',
    description: `Records an on-demand heartbeat, sent every 30 s during playback: the playhead and the seconds played and stalled since the last one. Its \`playing_seconds\` count toward the episode's views: a session (\`session_id\` issued by \`session/start\`) counts one view once its heartbeats and end add up to 30 s of playing time (docs/projections.md). Only for the episode and the account the session started with, and never more playing time than the wall time since its start (plus 5 s): a beat of an unknown or another's session, or one past that budget, is recorded but counts nothing. For a signed-in viewer it also saves the playhead for continue watching (an episode past 90% or in its last 5 minutes leaves the list). Both are side effects: a failure never fails the request. ${DELIVERY}`,
    request: { body: videoHeartbeatBody },
    responses: accepted('The heartbeat was'),
  }))();

export const recordVideoEvents = /* @__PURE__ */ (() =>
  contract({
    operationId: 'recordVideoEvents',
    ...sink,
    method: 'POST',
    path: '/analytics/video/events',
    handler: 'analytics/record-video-events',
    summary: 'A batch (≤100) of player events: play, pause, seek, rebuffer, ended…',
    description: `Records a batch of 1 to 100 on-demand player events (play, pause, seeking/seeked, rebufferstart/rebufferend, ended…), buffered by the client between heartbeats; each must carry its client time. All or nothing: one invalid event is a 422 naming it and nothing is recorded. ${SIGNED_IN} ${DELIVERY}`,
    request: { body: videoEventsBody },
    responses: accepted('The whole batch was'),
  }))();

export const recordVideoQuality = /* @__PURE__ */ (() =>
  contract({
    operationId: 'recordVideoQuality',
    ...sink,
    method: 'POST',
    path: '/analytics/video/quality',
    handler: 'analytics/record-video-quality',
    summary: 'A rendition change (bitrate, width, height)',
    description: `Records a rendition change of an on-demand session (stored as a \`renditionchange\` event): the new bitrate in kbps and its size in pixels. Send it when the player switches quality, as it happens. ${SIGNED_IN} ${DELIVERY}`,
    request: { body: videoQualityBody },
    responses: accepted('The rendition change was'),
  }))();

export const recordVideoError = /* @__PURE__ */ (() =>
  contract({
    operationId: 'recordVideoError',
    ...sink,
    method: 'POST',
    path: '/analytics/video/error',
    handler: 'analytics/record-video-error',
    summary: 'A player error (code, message, fatal)',
    description: `Records a player error of an on-demand session (stored as an \`error\` event): its code, message and whether it stopped playback (\`fatal\`, counted in the playback-failure metric). ${SIGNED_IN} ${DELIVERY}`,
    request: { body: videoErrorBody },
    responses: accepted('The error was'),
  }))();

export const recordVideoAds = /* @__PURE__ */ (() =>
  contract({
    operationId: 'recordVideoAds',
    ...sink,
    method: 'POST',
    path: '/analytics/video/ads',
    handler: 'analytics/record-video-ads',
    summary: 'A batch (≤100) of ad events',
    description: `Records a batch of 1 to 100 ad events of on-demand sessions (adrequest, adstart, adcomplete, aderror, adskip); each must carry its client time. All or nothing: one invalid event is a 422 naming it and nothing is recorded. ${SIGNED_IN} ${DELIVERY}`,
    request: { body: videoAdsBody },
    responses: accepted('The whole batch was'),
  }))();

export const endVideoSession = /* @__PURE__ */ (() =>
  contract({
    operationId: 'endVideoSession',
    ...sink,
    method: 'POST',
    path: '/analytics/video/session/end',
    handler: 'analytics/end-video-session',
    dynamo: { actions: ['DeleteItem', 'PutItem', 'UpdateItem'], indexes: ['GSI3'] },
    summary: 'End an on-demand analytics session',
    description: `Records the end of an on-demand session with the final playhead and the reason. Its \`playing_seconds\` count toward the session's view (30 s of playing time in a session started by \`session/start\` count one view of its episode; the heartbeat's rules apply). For a signed-in viewer it also saves the playhead for continue watching, or removes the episode from the list once it is finished (past 90% or in its last 5 minutes); a failure to do either never fails the request. ${DELIVERY}`,
    request: { body: videoEndBody },
    responses: accepted('The session end was'),
  }))();

export const startLiveSession = /* @__PURE__ */ (() =>
  contract({
    operationId: 'startLiveSession',
    ...sink,
    method: 'POST',
    path: '/analytics/live/session/start',
    handler: 'analytics/start-live-session',
    summary: 'Start a live analytics session',
    description: `Opens the analytics session of one viewer watching a live channel and records its \`start\` event. The answer carries the \`session_id\` to send with every later event of this session and the heartbeat interval (30 s), which the concurrent-viewer metric counts by. ${SIGNED_IN}`,
    request: { body: liveStartBody },
    responses: started,
  }))();

export const recordLiveHeartbeat = /* @__PURE__ */ (() =>
  contract({
    operationId: 'recordLiveHeartbeat',
    ...sink,
    method: 'POST',
    path: '/analytics/live/session/heartbeat',
    handler: 'analytics/record-live-heartbeat',
    summary: 'Live heartbeat every 30 s',
    description: `Records a live heartbeat, sent every 30 s while the viewer watches: seconds played and stalled since the last one. A session with a start or heartbeat in a minute counts as a concurrent viewer of the channel in that minute. ${SIGNED_IN} ${DELIVERY}`,
    request: { body: liveHeartbeatBody },
    responses: accepted('The heartbeat was'),
  }))();

export const recordLiveEvents = /* @__PURE__ */ (() =>
  contract({
    operationId: 'recordLiveEvents',
    ...sink,
    method: 'POST',
    path: '/analytics/live/events',
    handler: 'analytics/record-live-events',
    summary: 'A batch (≤100) of live events: player events, reactions, EPG changes',
    description: `Records a batch of 1 to 100 live events told apart by \`type\`: player events (as on demand), \`reaction\` (an emoji) and \`epg_change\` (the program on air changed); each must carry its client time. All or nothing: one invalid event is a 422 naming it and nothing is recorded. ${SIGNED_IN} ${DELIVERY}`,
    request: { body: liveEventsBody },
    responses: accepted('The whole batch was'),
  }))();

export const endLiveSession = /* @__PURE__ */ (() =>
  contract({
    operationId: 'endLiveSession',
    ...sink,
    method: 'POST',
    path: '/analytics/live/session/end',
    handler: 'analytics/end-live-session',
    summary: 'End a live analytics session',
    description: `Records the end of a live session with the reason (the viewer left, an error, the app went to the background, or the stream ended) and the seconds played since the last heartbeat. ${SIGNED_IN} ${DELIVERY}`,
    request: { body: liveEndBody },
    responses: accepted('The session end was'),
  }))();

export const listContinueWatching = /* @__PURE__ */ contract({
  operationId: 'listContinueWatching',
  tag,
  method: 'GET',
  path: '/me/continue-watching',
  handler: 'analytics/list-continue-watching',
  dynamo: { actions: [], indexes: ['GSI3'] },
  auth: 'required',
  summary: 'Unfinished episodes the caller watched, most recent first',
  description:
    "The signed-in viewer's unfinished episodes, most recently watched first, each with its resume point and progress, as recorded by their on-demand heartbeats and session ends. An episode past 90% or in its last 5 minutes counts as finished and is not listed. Not paginated: `limit` caps the list.",
  request: { query: listContinueWatchingQuery },
  responses: () => ({
    200: {
      description: "The caller's unfinished episodes (empty when none)",
      data: analyticsResponses().ContinueWatchingList,
    },
  }),
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
