import { contract } from '../../shared/http/contract.ts';
import { creatorPath } from '../../shared/live/schemas.ts';
import { liveReactionBody, realtimeResponses } from '../../shared/realtime/schemas.ts';

const tag = 'Live';
const base = '/creators/{id}/channel/live';
const creatorNotFound = { description: 'No creator has this id or handle', message: 'Creator not found' };
const noSubscription = {
  description: "The channel requires a subscription and the caller's does not grant access now",
  message: 'This channel requires an active subscription',
};

export const sendLiveReaction = contract({
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
});

export const getRealtimeAccess = contract({
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
});

export const realtimeContracts = [sendLiveReaction, getRealtimeAccess] as const;
