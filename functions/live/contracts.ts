import { contract } from '../../shared/http/contract.ts';
import { Pagination } from '../../shared/pagination.ts';
import {
  changeWatchBody,
  creatorPath,
  ondemandQuery,
  openWatchBody,
  sessionQuery,
  streamQuery,
  liveResponses,
} from '../../shared/watch/schemas.ts';

const tag = 'Live';
const base = '/creators/{id}/channel';

const creatorNotFound = { description: 'No creator has this id or handle', message: 'Creator not found' };
const sessionNotFound = {
  description:
    "No such creator, or no watch session with this id that is the caller's on this creator's channel",
  message: 'Watch session not found',
};
const sessionGone = {
  description: 'The session has ended or expired (no heartbeat for 90 s): open a new one',
  message: 'Watch session ended; open a new one with POST /creators/{id}/channel/live/watch',
};
const noSubscription = {
  description: "The channel requires a subscription and the caller's does not grant access now",
  message: 'This channel requires an active subscription',
};

export const getLiveChannel = /* @__PURE__ */ (() =>
  contract({
    operationId: 'getLiveChannel',
    tag,
    method: 'GET',
    path: `${base}/live`,
    handler: 'live/get-live-channel',
    dynamo: { actions: ['BatchGetItem', 'GetItem', 'Query', 'UpdateItem'], indexes: ['GSI1'] },
    auth: 'optional',
    summary: "Live status of a creator's channel (offline variant with a message)",
    description:
      "Whether a creator's channel is live now. Live: the channel with its broadcast and viewer count, and the caller's follow and subscription state (both false when anonymous; an invalid token is a 401). Offline: the channel with `stream: null` and a `message`; `is_live` tells the two shapes apart.",
    request: { path: creatorPath },
    responses: () => ({
      200: { description: 'The channel, live or offline', data: liveResponses().LiveChannelStatus },
      404: creatorNotFound,
    }),
  }))();

export const getLiveStream = /* @__PURE__ */ (() =>
  contract({
    operationId: 'getLiveStream',
    tag,
    method: 'GET',
    path: `${base}/live/stream`,
    handler: 'live/get-live-stream',
    dynamo: { actions: ['BatchGetItem', 'GetItem', 'Query', 'UpdateItem'], indexes: ['GSI1'] },
    needs: ['playback-signer', 'media-signer'],
    auth: 'required',
    summary: "Playback URLs and a playback token of the caller's open watch session",
    description:
      "Playable URLs of the creator's live stream (the IVS playback URL with `?token=`, an ES384 playback token that expires within 10 minutes) for the caller's open watch session on this stream: a playback token belongs to a watch session, so the concurrent-stream limit bounds what an account plays. 409 when the caller has no open session on the current stream (open one with POST .../live/watch). `quality` echoes the rendition the player should pick from the playlist; `dvr=true` answers the DVR URL as `stream_url`. A channel that requires a subscription answers 403 without one.",
    request: { path: creatorPath, query: streamQuery },
    responses: () => ({
      200: { description: 'Playback URLs and token', data: liveResponses().LivePlayback },
      403: noSubscription,
      409: {
        description: 'The caller has no open watch session on the current stream',
        message:
          'Open a watch session first (POST /creators/{id}/channel/live/watch): playback tokens belong to one',
      },
      404: {
        description: 'No such creator, or the creator is not live now',
        message: 'No active live stream for this creator',
      },
    }),
  }))();

export const getLiveViewers = /* @__PURE__ */ (() =>
  contract({
    operationId: 'getLiveViewers',
    tag,
    method: 'GET',
    path: `${base}/live/viewers`,
    handler: 'live/get-live-viewers',
    dynamo: { actions: ['BatchGetItem', 'GetItem', 'UpdateItem'], indexes: ['GSI1'] },
    auth: 'none',
    summary: 'Viewers now, peaks and the per-device breakdown',
    description:
      "A channel's audience: viewers now (counted from watch-session heartbeats in 30-second buckets), today's peak (UTC day) and the all-time peak, and viewers now per device type. Public; an offline channel answers with its last counts and `is_live: false`.",
    request: { path: creatorPath },
    responses: () => ({
      200: { description: 'The audience of the channel', data: liveResponses().LiveViewers },
      404: creatorNotFound,
    }),
  }))();

export const getLiveMetadata = /* @__PURE__ */ (() =>
  contract({
    operationId: 'getLiveMetadata',
    tag,
    method: 'GET',
    path: `${base}/live/metadata`,
    handler: 'live/get-live-metadata',
    dynamo: { actions: ['GetItem'], indexes: ['GSI1'] },
    auth: 'none',
    summary: 'Stream metadata: health, uptime, encoding, CDN, DRM, URLs',
    description:
      "Technical facts of the creator's live stream: health, uptime, encoding, CDN, DRM (on channels that require a subscription) and tokenless reference URLs. Public; an offline channel answers `is_live: false`, `stream_health: offline` and null ids.",
    request: { path: creatorPath },
    responses: () => ({
      200: { description: 'The stream metadata', data: liveResponses().LiveStreamMetadata },
      404: creatorNotFound,
    }),
  }))();

export const listLiveQualities = /* @__PURE__ */ (() =>
  contract({
    operationId: 'listLiveQualities',
    tag,
    method: 'GET',
    path: `${base}/live/qualities`,
    handler: 'live/list-live-qualities',
    dynamo: { actions: ['GetItem'], indexes: ['GSI1'] },
    auth: 'required',
    summary: "Quality options and the session's current quality",
    description:
      "The qualities a live stream is offered in (`auto` first, then concrete renditions best first) and the current quality of the caller's watch session. The session must be the caller's own on this creator's channel (another account's answers 404) and still live: an ended or expired one answers 410, as PATCH .../live/watch does (open a new one).",
    request: { path: creatorPath, query: sessionQuery },
    responses: () => ({
      200: { description: "The session's quality and the options", data: liveResponses().LiveQualities },
      404: sessionNotFound,
      410: sessionGone,
    }),
  }))();

export const startWatchSession = /* @__PURE__ */ (() =>
  contract({
    operationId: 'startWatchSession',
    tag,
    method: 'POST',
    path: `${base}/live/watch`,
    handler: 'live/start-watch-session',
    dynamo: {
      actions: ['BatchGetItem', 'ConditionCheckItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'],
      indexes: ['GSI1'],
    },
    needs: ['playback-signer', 'media-signer'],
    auth: 'required',
    summary: 'Open a watch session (404 offline, 403 subscription, 429 stream limit)',
    description:
      "Opens a watch session on a live channel for the caller: the session (heartbeat every 30 s, or it lapses after 90 s), playable URLs with a playback token, the channel, the audience (the caller counted) and today's programme guide in the requested IANA time zone. 404 when the creator is not live or the channel id is not theirs, 403 without the subscription a gated channel requires, 429 `concurrent_streams` when the account already has the maximum of live sessions open (3 by default).",
    request: { path: creatorPath, body: openWatchBody },
    responses: () => ({
      200: { description: 'The session opened, with what to play', data: liveResponses().WatchStarted },
      403: noSubscription,
      404: {
        description: 'No such creator, the creator is not live now, or `channel_id` is not their channel',
        message: 'No active live stream for this creator',
      },
      429: {
        description: 'The account already has the maximum of live watch sessions open: end one first',
        message: 'Maximum of 3 concurrent streams reached; end another session first',
        reasons: ['concurrent_streams'],
      },
    }),
  }))();

export const changeWatchQuality = /* @__PURE__ */ (() =>
  contract({
    operationId: 'changeWatchQuality',
    tag,
    method: 'PATCH',
    path: `${base}/live/watch`,
    handler: 'live/change-watch-quality',
    dynamo: { actions: ['GetItem', 'UpdateItem'], indexes: ['GSI1'] },
    needs: ['playback-signer', 'media-signer'],
    auth: 'required',
    summary: "Change a session's quality; refreshed token and URL",
    description:
      "Switches a live watch session to another quality (and, optionally, another device, as on a cast) and answers a refreshed playback token and the new playlist URL. The session must be the caller's own and still live: an ended or expired one answers 410 (open a new one).",
    request: { path: creatorPath, body: changeWatchBody },
    responses: () => ({
      200: { description: 'The new quality, URL and token', data: liveResponses().WatchQualityChanged },
      404: sessionNotFound,
      410: sessionGone,
    }),
  }))();

export const endWatchSession = /* @__PURE__ */ (() =>
  contract({
    operationId: 'endWatchSession',
    tag,
    method: 'DELETE',
    path: `${base}/live/watch`,
    handler: 'live/end-watch-session',
    dynamo: { actions: ['GetItem', 'UpdateItem'], indexes: ['GSI1'] },
    // Ending a session revokes its playback on the creator's IVS channel.
    ivs: ['StartViewerSessionRevocation'],
    auth: 'required',
    summary: 'End a watch session; watch duration',
    description:
      "Ends the caller's watch session and reports how long it was watched; its playback token stops playing (the viewer's session is revoked on IVS). Idempotent: an ended session answers its recorded end again, an expired one ends at its expiry; the envelope's `message` says which (`Watch session ended`, `Watch session had already ended`, `Watch session had already expired`).",
    request: { path: creatorPath, query: sessionQuery },
    responses: () => ({
      200: { description: 'The session ended, with its watch time', data: liveResponses().WatchEnded },
      404: sessionNotFound,
    }),
  }))();

export const sendHeartbeat = /* @__PURE__ */ (() =>
  contract({
    operationId: 'sendHeartbeat',
    tag,
    method: 'GET',
    path: `${base}/live/heartbeat`,
    handler: 'live/send-heartbeat',
    dynamo: { actions: ['GetItem', 'Query', 'UpdateItem'], indexes: ['GSI1'] },
    needs: ['playback-signer'],
    successLog: {
      every: 20,
      reason:
        'Every viewer sends one every 30 s: a line each was 7% of the live viewer hour (docs/cost.md); the requests metric counts them all, failures are always logged',
    },
    auth: 'required',
    summary: 'Keep a session alive; refreshed token, viewers, current/next program',
    description:
      "Keeps the caller's watch session alive (until `expires_at`: 90 s past the end of the 3-minute viewer-count period, renewed by the period's first heartbeat) and answers a refreshed playback token, the audience and what is on now and next in the session's time zone; send one every `next_heartbeat_seconds` (30). A session that has ended or expired answers 200 with `session_valid: false` and a `reason`, and no token: open a new one. On a channel that requires a subscription, the period's first heartbeat checks it again (403 once it no longer grants access; the session is not renewed and lapses).",
    request: { path: creatorPath, query: sessionQuery },
    responses: () => ({
      200: {
        description: 'The session extended (`session_valid: true`), or why it is no longer valid',
        data: liveResponses().Heartbeat,
      },
      403: {
        description:
          "The channel requires a subscription and the caller's no longer grants access: the period's first heartbeat (the one that would renew the session) checks it as opening does, and renews nothing",
        message: 'This channel requires an active subscription',
      },
      404: sessionNotFound,
    }),
  }))();

export const listOndemand = /* @__PURE__ */ (() =>
  contract({
    operationId: 'listOndemand',
    tag,
    method: 'GET',
    path: `${base}/ondemand`,
    handler: 'live/list-ondemand',
    needs: ['media-signer'],
    dynamo: { actions: ['GetItem', 'Query'], indexes: ['GSI1'] },
    auth: 'optional',
    summary: "The creator's on-demand episodes, locked per the caller's entitlements",
    description:
      "A page of the creator's episodes as on-demand items, filtered by access type and season. Each item says whether the caller may play it: free items always, premium ones with a subscription to the creator that grants access now, pay-per-view ones once bought (entitlements, docs/payments.md; anonymous callers get both locked); a locked item has `stream_url: null`.",
    request: { path: creatorPath, query: ondemandQuery },
    responses: () => ({
      200: { description: 'A page of on-demand items', data: liveResponses().OnDemandPage, meta: Pagination },
      404: creatorNotFound,
    }),
  }))();

export const followCreator = /* @__PURE__ */ contract({
  operationId: 'followCreator',
  tag,
  method: 'POST',
  path: '/creators/{id}/follow',
  handler: 'live/follow-creator',
  dynamo: { actions: ['GetItem', 'PutItem'], indexes: ['GSI1'] },
  auth: 'required',
  summary: 'Follow a creator',
  description:
    "The caller follows the creator (idempotent: following again changes nothing). Answers the follow state. 409 when the creator is the caller's own (a creator's id is their account's): nothing is written, so follower counts are unaffected.",
  request: { path: creatorPath },
  responses: () => ({
    200: { description: 'The caller follows the creator', data: liveResponses().FollowState },
    404: creatorNotFound,
    409: { description: "The creator is the caller's own", message: 'You cannot follow yourself' },
  }),
});

export const unfollowCreator = /* @__PURE__ */ contract({
  operationId: 'unfollowCreator',
  tag,
  method: 'DELETE',
  path: '/creators/{id}/follow',
  handler: 'live/unfollow-creator',
  dynamo: { actions: ['DeleteItem', 'GetItem'], indexes: ['GSI1'] },
  auth: 'required',
  summary: 'Stop following a creator',
  description:
    'The caller stops following the creator (idempotent: unfollowing a creator not followed changes nothing). Answers the follow state.',
  request: { path: creatorPath },
  responses: () => ({
    200: { description: 'The caller no longer follows the creator', data: liveResponses().FollowState },
    404: creatorNotFound,
  }),
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
] as const;
