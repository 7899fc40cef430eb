import * as z from 'zod/mini';
import { contract } from '../../shared/http/contract.ts';
import {
  creatorPath,
  streamQuery,
  sessionQuery,
  openWatchBody,
  changeWatchBody,
  ondemandQuery,
} from '../../shared/live/schemas.ts';

const tag = 'Live';
const base = '/creators/{id}/channel';

export const getLiveChannel = contract({
  operationId: 'getLiveChannel',
  tag,
  method: 'GET',
  path: `${base}/live`,
  handler: 'live/get-live-channel',
  dynamo: { actions: ['BatchGetItem', 'GetItem', 'UpdateItem'], indexes: ['GSI1'] },
  auth: 'optional',
  summary: "Live status of a creator's channel (offline variant with a message)",
  description: "Live status of a creator's channel (offline variant with a message)",
  request: { path: creatorPath },
  responses: {
    200: { description: 'Success', data: z.unknown() },
  },
});

export const getLiveStream = contract({
  operationId: 'getLiveStream',
  tag,
  method: 'GET',
  path: `${base}/live/stream`,
  handler: 'live/get-live-stream',
  dynamo: { actions: ['BatchGetItem', 'GetItem', 'UpdateItem'], indexes: ['GSI1'] },
  needs: ['playback-signer'],
  auth: 'required',
  summary: 'Playback URLs and a playback token for a quality',
  description: 'Playback URLs and a playback token for a quality',
  request: { path: creatorPath, query: streamQuery },
  responses: {
    200: { description: 'Success', data: z.unknown() },
  },
});

export const getLiveViewers = contract({
  operationId: 'getLiveViewers',
  tag,
  method: 'GET',
  path: `${base}/live/viewers`,
  handler: 'live/get-live-viewers',
  dynamo: { actions: ['BatchGetItem', 'GetItem', 'UpdateItem'], indexes: ['GSI1'] },
  auth: 'none',
  summary: 'Viewers now, peaks and the per-device breakdown',
  description: 'Viewers now, peaks and the per-device breakdown',
  request: { path: creatorPath },
  responses: {
    200: { description: 'Success', data: z.unknown() },
  },
});

export const getLiveMetadata = contract({
  operationId: 'getLiveMetadata',
  tag,
  method: 'GET',
  path: `${base}/live/metadata`,
  handler: 'live/get-live-metadata',
  dynamo: { actions: ['GetItem'], indexes: ['GSI1'] },
  auth: 'none',
  summary: 'Stream metadata: health, uptime, encoding, CDN, DRM, URLs',
  description: 'Stream metadata: health, uptime, encoding, CDN, DRM, URLs',
  request: { path: creatorPath },
  responses: {
    200: { description: 'Success', data: z.unknown() },
  },
});

export const listLiveQualities = contract({
  operationId: 'listLiveQualities',
  tag,
  method: 'GET',
  path: `${base}/live/qualities`,
  handler: 'live/list-live-qualities',
  dynamo: { actions: ['GetItem'] },
  auth: 'required',
  summary: "Quality options and the session's current quality",
  description: "Quality options and the session's current quality",
  request: { path: creatorPath, query: sessionQuery },
  responses: {
    200: { description: 'Success', data: z.unknown() },
  },
});

export const startWatchSession = contract({
  operationId: 'startWatchSession',
  tag,
  method: 'POST',
  path: `${base}/live/watch`,
  handler: 'live/start-watch-session',
  dynamo: { actions: ['BatchGetItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'] },
  needs: ['playback-signer'],
  auth: 'required',
  summary: 'Open a watch session (404 offline, 403 subscription, 429 stream limit)',
  description: 'Open a watch session (404 offline, 403 subscription, 429 stream limit)',
  request: { path: creatorPath, body: openWatchBody },
  responses: {
    200: { description: 'Success', data: z.unknown() },
  },
});

export const changeWatchQuality = contract({
  operationId: 'changeWatchQuality',
  tag,
  method: 'PATCH',
  path: `${base}/live/watch`,
  handler: 'live/change-watch-quality',
  dynamo: { actions: ['GetItem', 'UpdateItem'] },
  needs: ['playback-signer'],
  auth: 'required',
  summary: "Change a session's quality; refreshed token and URL",
  description: "Change a session's quality; refreshed token and URL",
  request: { path: creatorPath, body: changeWatchBody },
  responses: {
    200: { description: 'Success', data: z.unknown() },
  },
});

export const endWatchSession = contract({
  operationId: 'endWatchSession',
  tag,
  method: 'DELETE',
  path: `${base}/live/watch`,
  handler: 'live/end-watch-session',
  dynamo: { actions: ['DeleteItem', 'GetItem', 'UpdateItem'] },
  auth: 'required',
  summary: 'End a watch session; watch duration',
  description: 'End a watch session; watch duration',
  request: { path: creatorPath, query: sessionQuery },
  responses: {
    200: { description: 'Success', data: z.unknown() },
  },
});

export const sendHeartbeat = contract({
  operationId: 'sendHeartbeat',
  tag,
  method: 'GET',
  path: `${base}/live/heartbeat`,
  handler: 'live/send-heartbeat',
  dynamo: { actions: ['BatchGetItem', 'GetItem', 'Query', 'UpdateItem'] },
  needs: ['playback-signer'],
  auth: 'required',
  summary: 'Keep a session alive; refreshed token, viewers, current/next program',
  description: 'Keep a session alive; refreshed token, viewers, current/next program',
  request: { path: creatorPath, query: sessionQuery },
  responses: {
    200: { description: 'Success', data: z.unknown() },
  },
});

export const listOndemand = contract({
  operationId: 'listOndemand',
  tag,
  method: 'GET',
  path: `${base}/ondemand`,
  handler: 'live/list-ondemand',
  dynamo: { actions: ['BatchGetItem', 'GetItem'], indexes: ['GSI1'] },
  auth: 'optional',
  summary: "The creator's on-demand episodes, locked per the caller's entitlements",
  description: "The creator's on-demand episodes, locked per the caller's entitlements",
  request: { path: creatorPath, query: ondemandQuery },
  responses: {
    200: { description: 'Success', data: z.unknown(), meta: z.unknown() },
  },
});

export const followCreator = contract({
  operationId: 'followCreator',
  tag,
  method: 'POST',
  path: '/creators/{id}/follow',
  handler: 'live/follow-creator',
  dynamo: { actions: ['GetItem', 'PutItem'], indexes: ['GSI1'] },
  auth: 'required',
  summary: 'Follow a creator',
  description: 'Follow a creator',
  request: { path: creatorPath },
  responses: {
    200: { description: 'Success', data: z.unknown() },
  },
});

export const unfollowCreator = contract({
  operationId: 'unfollowCreator',
  tag,
  method: 'DELETE',
  path: '/creators/{id}/follow',
  handler: 'live/unfollow-creator',
  dynamo: { actions: ['DeleteItem', 'GetItem'], indexes: ['GSI1'] },
  auth: 'required',
  summary: 'Stop following a creator',
  description: 'Stop following a creator',
  request: { path: creatorPath },
  responses: {
    200: { description: 'Success', data: z.unknown() },
  },
});

export const subscribeCreator = contract({
  operationId: 'subscribeCreator',
  tag,
  method: 'POST',
  path: '/creators/{id}/subscription',
  handler: 'live/subscribe-creator',
  dynamo: { actions: ['BatchGetItem', 'GetItem', 'PutItem'], indexes: ['GSI1'] },
  auth: 'required',
  summary: 'Subscribe to a creator (unlocks gated channels and premium episodes)',
  description: 'Subscribe to a creator (unlocks gated channels and premium episodes)',
  request: { path: creatorPath },
  responses: {
    200: { description: 'Success', data: z.unknown() },
  },
});

export const cancelSubscription = contract({
  operationId: 'cancelSubscription',
  tag,
  method: 'DELETE',
  path: '/creators/{id}/subscription',
  handler: 'live/cancel-subscription',
  dynamo: { actions: ['BatchGetItem', 'GetItem', 'PutItem'], indexes: ['GSI1'] },
  auth: 'required',
  summary: 'Cancel a subscription (access until the renewal date)',
  description: 'Cancel a subscription (access until the renewal date)',
  request: { path: creatorPath },
  responses: {
    200: { description: 'Success', data: z.unknown() },
  },
});

export const liveContracts = [
  getLiveChannel,
  getLiveStream,
  getLiveViewers,
  getLiveMetadata,
  listLiveQualities,
  startWatchSession,
  changeWatchQuality,
  endWatchSession,
  sendHeartbeat,
  listOndemand,
  followCreator,
  unfollowCreator,
  subscribeCreator,
  cancelSubscription,
] as const;
