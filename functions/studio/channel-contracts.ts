import { NOT_A_CREATOR_YET } from '../../shared/creators/messages.ts';
import type { Contract } from '../../shared/http/contract.ts';
import { contract } from '../../shared/http/contract.ts';
import { channelResponses, ROTATED_CONCURRENTLY } from '../../shared/studio/channel-schemas.ts';

const tag = 'Studio';
/**
 * Channel operations call the IVS control plane (5 requests a second per account for channel and
 * key operations): 20 an hour per account is ample for a creator and keeps one account from
 * spending the platform's IVS budget.
 */
const rateLimit = { limit: 20, windowSeconds: 3600, by: 'account' } as const;
/** And at most 5 a second across all accounts: IVS's own rate for these operations. */
const throttle = { rate: 5, burst: 5 } as const;
const noStore = {
  'cache-control': '`no-store`: the answer carries the stream key, a secret no cache may keep',
};
const notCreator = {
  description: 'The account has not finished onboarding (no creator yet), so it has no channel',
  message: NOT_A_CREATOR_YET,
};
const noChannel = {
  description: 'The caller has not created their channel yet (`POST /studio/channel`)',
  message: 'No channel yet: create it with POST /studio/channel',
};
/** A deleted account's access token outlives the tombstone by up to 15 minutes: no channel, no key. */
const deleted = {
  description:
    "The token's account was deleted (its purge pending): it makes no channel and no stream key, and its broadcast was ended",
  message: 'Account not found',
};
const ivsActionsNote =
  'IVS throttling is retried with backoff (up to 6 attempts); past that the answer is 503 with `Retry-After`.';

export const createStudioChannel = /* @__PURE__ */ (() =>
  contract({
    operationId: 'createStudioChannel',
    tag,
    method: 'POST',
    path: '/studio/channel',
    handler: 'studio/create-channel',
    dynamo: { actions: ['GetItem', 'PutItem', 'UpdateItem'] },
    ivs: ['CreateChannel', 'DeleteChannel', 'ListStreamKeys', 'GetStreamKey'],
    ivsChat: ['CreateRoom', 'DeleteRoom'],
    auth: 'required',
    stepUp: true,
    rateLimit,
    throttle,
    summary: "Create the caller's live channel on IVS, with its chat room",
    description: `Provisions the caller's channel on Amazon IVS: low latency, private (playback needs a token from a watch session), recorded (broadcasts become on-demand content), with its Amazon IVS Chat room (every message reviewed by the platform's handler; docs/chat.md). Answers 201 with the ingest settings and the stream key the first time, and 200 with the same channel on every later call (a creator has one channel; concurrent calls make one). ${ivsActionsNote}`,
    responses: () => ({
      200: {
        description: 'The channel already existed: it, unchanged',
        data: channelResponses().StudioChannel,
        headers: noStore,
      },
      201: {
        description: 'The channel was created',
        data: channelResponses().StudioChannel,
        headers: noStore,
      },
      403: notCreator,
      404: deleted,
    }),
  }))();

export const getStudioChannel = /* @__PURE__ */ (() =>
  contract({
    operationId: 'getStudioChannel',
    tag,
    method: 'GET',
    path: '/studio/channel',
    handler: 'studio/get-channel',
    dynamo: { actions: ['GetItem'] },
    ivs: ['ListStreamKeys', 'GetStreamKey'],
    auth: 'required',
    stepUp: true,
    throttle: { rate: 20, burst: 40 },
    summary: "The caller's live channel: ingest settings, stream key, live state",
    description: `The caller's IVS channel: where to send the stream (\`ingest_url\` and \`stream_key\` for OBS or any RTMPS encoder), whether it is live now and its ingest health. The stream key is read from IVS on each call and shown to its owner only. ${ivsActionsNote}`,
    responses: () => ({
      200: { description: 'The channel', data: channelResponses().StudioChannel, headers: noStore },
      403: notCreator,
      404: noChannel,
    }),
  }))();

export const rotateStudioStreamKey = /* @__PURE__ */ (() =>
  contract({
    operationId: 'rotateStudioStreamKey',
    tag,
    method: 'POST',
    path: '/studio/channel/stream-key/rotate',
    handler: 'studio/rotate-stream-key',
    dynamo: { actions: ['GetItem'] },
    ivs: ['ListStreamKeys', 'DeleteStreamKey', 'CreateStreamKey'],
    auth: 'required',
    stepUp: true,
    rateLimit,
    throttle,
    summary: "Replace the caller's stream key",
    description: `Deletes the channel's stream key and makes a new one (IVS allows one key per channel): an encoder using the old key can no longer start a stream; a stream already live keeps running until it ends. Answers the channel with the new key. ${ivsActionsNote}`,
    responses: () => ({
      200: {
        description: 'The channel with its new stream key',
        data: channelResponses().StudioChannel,
        headers: noStore,
      },
      403: notCreator,
      404: {
        description: `${noChannel.description}; or ${deleted.description.charAt(0).toLowerCase()}${deleted.description.slice(1)}`,
        message: noChannel.message,
      },
      409: {
        description:
          "Another rotation of the same channel made the new key at the same moment (a double click): that key is the channel's, read it with GET /studio/channel",
        message: ROTATED_CONCURRENTLY,
      },
    }),
  }))();

export const studioChannelContracts: readonly Contract[] = [
  createStudioChannel,
  getStudioChannel,
  rotateStudioStreamKey,
];
