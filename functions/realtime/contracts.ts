import { NOT_A_CREATOR_YET } from '../../shared/creators/messages.ts';
import { contract } from '../../shared/http/contract.ts';
import { creatorPath } from '../../shared/watch/schemas.ts';
import { cueBody, liveReactionBody, realtimeResponses } from '../../shared/realtime/schemas.ts';

const tag = 'Live';
const base = '/creators/{id}/channel/live';
const creatorNotFound = { description: 'No creator has this id or handle', message: 'Creator not found' };
const noSubscription = {
  description: "The channel requires a subscription and the caller's does not grant access now",
  message: 'This channel requires an active subscription',
};

export const sendLiveReaction = /* @__PURE__ */ (() =>
  contract({
    operationId: 'sendLiveReaction',
    tag,
    method: 'POST',
    path: `${base}/reactions`,
    handler: 'realtime/send-live-reaction',
    // GetItem: the creator, a follow; Query: the caller's entitlements (a gated channel), GSI1: a
    // handle. UpdateItem: the tick's counter shard.
    dynamo: { actions: ['GetItem', 'Query', 'UpdateItem'], indexes: ['GSI1'] },
    // A burst of taps is the point, a flood is not: 10 a second per account, sustained over a minute.
    rateLimit: { limit: 600, windowSeconds: 60, by: 'account' },
    // And across all accounts, before Lambda: the 10,000 a second one hot channel may see (one
    // counter write each; docs/realtime.md "Reactions").
    throttle: { rate: 10_000, burst: 10_000 },
    auth: 'required',
    summary: 'React live on a channel: counted into the tick, pushed as per-emoji totals',
    description:
      "Counts one emoji reaction into the live channel's current tick (5 s). Nobody is sent this reaction: once the tick ends, subscribers of the channel's realtime channel get one `reactions` message with the tick's per-emoji totals (docs/realtime.md), so a burst of 10,000 reactions a second is still one message per tick. 409 when the channel is not live, 403 on a channel the caller's subscription does not open, 429 `rate_limit` past 600 a minute per account.",
    request: { path: creatorPath, body: liveReactionBody },
    responses: () => ({
      202: { description: "Counted into the tick's totals", data: realtimeResponses().LiveReactionCounted },
      403: noSubscription,
      404: creatorNotFound,
      409: {
        description: 'The channel is not live now',
        message: 'The channel is not live: reactions are counted only during a broadcast',
      },
    }),
  }))();

export const getRealtimeAccess = /* @__PURE__ */ (() =>
  contract({
    operationId: 'getRealtimeAccess',
    tag,
    method: 'GET',
    path: `${base}/realtime`,
    handler: 'realtime/get-realtime-access',
    dynamo: { actions: ['GetItem', 'Query'], indexes: ['GSI1'] },
    needs: ['token-signer', 'realtime-endpoint'],
    auth: 'optional',
    summary: "Subscribe to a channel's live state: endpoint, channel and a short-lived token",
    description:
      "How to receive a channel's live state pushed (audience, reactions, state, program; docs/realtime.md) instead of polling: the AppSync Events WebSocket endpoint, the creator's channel and the live list's, and a token for both valid 5 minutes (the connection outlives it). An open channel answers anyone, signed in or not; a channel that requires a subscription answers only an account whose subscription grants access now (401 anonymous, 403 without it), and the Event API refuses its channel to any other token.",
    request: { path: creatorPath },
    responses: () => ({
      200: { description: 'The connection details', data: realtimeResponses().RealtimeAccess },
      403: noSubscription,
      404: creatorNotFound,
    }),
  }))();

export const sendCue = /* @__PURE__ */ contract({
  operationId: 'sendStudioCue',
  tag: 'Studio',
  method: 'POST',
  path: '/studio/channel/cues',
  handler: 'realtime/send-cue',
  // GetItem: the caller's creator. UpdateItem: the second's two cue counters (one transaction).
  dynamo: { actions: ['GetItem', 'UpdateItem'] },
  ivs: ['PutMetadata'],
  auth: 'required',
  summary: 'Place a cue in the live stream (IVS timed metadata), in step with the picture',
  description:
    "Puts `{ type, payload }` (at most 1 KB as JSON) into the caller's live stream as Amazon IVS timed metadata, so every player surfaces it at the same moment of the video (a poll opening, a product shown). IVS takes 5 a second per channel and 155 per account: the call waits for the first second with room within 3 s (`sent_at`), else 429 `rate_limit` with Retry-After. 409 when the channel is not broadcasting, 404 before `POST /studio/channel`, 403 before onboarding is finished.",
  request: { body: cueBody },
  responses: () => ({
    202: { description: 'The cue is in the stream', data: realtimeResponses().CueSent },
    403: {
      description: 'The account has not finished onboarding',
      message: NOT_A_CREATOR_YET,
    },
    404: {
      description: 'The caller has no channel yet',
      message: 'No channel yet: create it with POST /studio/channel',
    },
    409: {
      description: 'The channel is not broadcasting',
      message: 'The channel is not broadcasting: cues go into a live stream',
    },
    429: {
      description: "No room in the channel's or the account's IVS budget within 3 s",
      message: 'Cue rate reached: IVS takes 5 cues a second per channel; retry in a few seconds',
      reasons: ['rate_limit'],
    },
  }),
});

export const realtimeContracts = [sendLiveReaction, getRealtimeAccess, sendCue] as const;
