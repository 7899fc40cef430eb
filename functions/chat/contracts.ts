import type { Contract } from '../../shared/http/contract.ts';
import { contract } from '../../shared/http/contract.ts';
import {
  accountPath,
  banBody,
  chatResponses,
  chatSettingsBody,
  deleteMessageQuery,
  messagePath,
  studioChatQuery,
} from '../../shared/chat/schemas.ts';
import { creatorPath } from '../../shared/watch/schemas.ts';

/** Live chat on Amazon IVS Chat (docs/chat.md): tokens for viewers, moderation for the studio. */

const tag = 'Chat';
/** Moderation: a busy channel's moderators act often, but 600 an hour per account is ample. */
const rateLimit = { limit: 600, windowSeconds: 3600, by: 'account' } as const;
/** IVS Chat allows 100 a second for DeleteMessage, DisconnectUser and SendEvent (docs/chat.md "Quotas"). */
const moderationThrottle = { rate: 20, burst: 40 } as const;

const notYours = {
  description:
    "The caller is not a creator (onboarding unfinished), or `channel` names a channel they do not moderate or that banned them, or the action is the creator's only (appointing moderators) or not allowed on its target (banning the creator, a moderator banning a moderator or lifting a moderator's ban)",
  message: 'You do not moderate this channel',
};
const noRoom = {
  description: 'The channel (`channel`, a creator id) does not exist, or it has no chat room yet',
  message: 'No chat room yet: create the channel with POST /studio/channel',
};
const channelQueryNote =
  "Acts on the caller's own channel, or with `?channel=<creator id>` on a channel they moderate.";

export const createChatToken = /* @__PURE__ */ contract({
  operationId: 'createChatToken',
  tag,
  method: 'POST',
  path: '/creators/{id}/channel/chat/token',
  handler: 'chat/create-chat-token',
  // GetItem: the creator, the chat settings, and of a signed-in caller their account, follow,
  // subscription, moderator role, ban and the token's session (in parallel). GSI1: the creator by
  // handle. PutItem: the record of the room a signed-in caller got a token for (beside
  // CreateChatToken).
  dynamo: { actions: ['GetItem', 'PutItem'], indexes: ['GSI1'] },
  ivsChat: ['CreateChatToken'],
  auth: 'optional',
  // Every viewer opening a channel asks once an hour; 60 a minute per address leaves room for NAT.
  rateLimit: { limit: 60, windowSeconds: 60, by: 'ip' },
  throttle: { rate: 50, burst: 100 },
  summary: "A token for the channel's live chat: what the caller may do there is the server's decision",
  description:
    "Answers an Amazon IVS Chat token for the channel's room and the messaging endpoint to open with it. What the token allows is decided here from what the server knows, never from the request: anonymous callers read only; a signed-in viewer may send unless the room's mode excludes them (followers-only with a minimum follow age, subscribers-only, established accounts only: `read_only_reason` says which); the creator and their moderators may also delete messages and disconnect users. A banned or timed-out account gets no token (403), nor a deleted one whose access token is still valid, nor the still-valid access token of a session that was signed out (401). A channel that requires a subscription admits to its chat whom it admits to playback (an entitlement that grants now), its creator and moderators. The token's attributes (what other clients see) are the display name and badges (`creator`, `moderator`, `subscriber`). Tokens are single-use and the session lasts an hour (a moderator's 10 minutes: IVS Chat revokes no token, so that is how long a removed moderator's unused one moderates); then ask again.",
  request: { path: creatorPath },
  responses: () => ({
    200: { description: 'A chat token', data: chatResponses().ChatToken },
    403: {
      description:
        'The caller is banned or timed out from this chat, or the channel requires a subscription the caller does not hold',
      message: 'You are banned from this chat',
    },
    404: {
      description: 'No creator has this id or handle, or their channel has no chat room',
      message: 'Creator not found',
    },
  }),
});

export const getChatSettings = /* @__PURE__ */ (() =>
  contract({
    operationId: 'getChatSettings',
    tag,
    method: 'GET',
    path: '/studio/chat/settings',
    handler: 'chat/get-chat-settings',
    // GetItem: the caller's moderator role, the creator, the settings.
    dynamo: { actions: ['GetItem'] },
    auth: 'required',
    summary: "The channel's chat rules (slow mode, modes, blocked terms)",
    description: `The chat settings as stored (all off until first set), for the studio to show and edit before a PUT replaces them. ${channelQueryNote}`,
    request: { query: studioChatQuery },
    responses: () => ({
      200: { description: 'The settings', data: chatResponses().ChatSettings },
      403: notYours,
      404: { description: 'The channel (`channel`) does not exist', message: 'Creator not found' },
    }),
  }))();

export const putChatSettings = /* @__PURE__ */ (() =>
  contract({
    operationId: 'putChatSettings',
    tag,
    method: 'PUT',
    path: '/studio/chat/settings',
    handler: 'chat/put-chat-settings',
    // GetItem: the caller's moderator role, the creator. PutItem: the settings and the action record.
    dynamo: { actions: ['GetItem', 'PutItem'] },
    auth: 'required',
    rateLimit,
    throttle: moderationThrottle,
    summary: "Set the channel's chat rules (slow mode, modes, blocked terms)",
    description: `Replaces the chat settings (a field left out is off). Tokens issued from then on follow the modes; the message review handler applies slow mode, emote-only and blocked terms to every message within seconds (it caches settings for ${10} s). ${channelQueryNote} Recorded, and announced as \`chat.settings_changed\`.`,
    request: { query: studioChatQuery, body: chatSettingsBody },
    responses: () => ({
      200: { description: 'The settings as stored', data: chatResponses().ChatSettings },
      403: notYours,
      404: { description: 'The channel (`channel`) does not exist', message: 'Creator not found' },
    }),
  }))();

export const putChatModerator = /* @__PURE__ */ contract({
  operationId: 'putChatModerator',
  tag,
  method: 'PUT',
  path: '/studio/chat/moderators/{account_id}',
  handler: 'chat/put-chat-moderator',
  dynamo: { actions: ['GetItem', 'PutItem'] },
  auth: 'required',
  rateLimit,
  throttle: moderationThrottle,
  summary: 'Appoint a chat moderator',
  description:
    'The creator appoints an account as a moderator of their chat (idempotent): its next token may delete messages and disconnect users, and it may call the studio chat routes with `?channel=<creator id>` (not this one: only the creator appoints). Recorded, and announced as `chat.moderator_added`.',
  request: { path: accountPath },
  responses: () => ({
    200: { description: 'The moderator', data: chatResponses().ChatModerator },
    403: notYours,
    404: { description: 'No account has this id', message: 'Account not found' },
    409: { description: 'The account is the creator', message: 'The creator moderates their chat already' },
  }),
});

export const deleteChatModerator = /* @__PURE__ */ contract({
  operationId: 'deleteChatModerator',
  tag,
  method: 'DELETE',
  path: '/studio/chat/moderators/{account_id}',
  handler: 'chat/delete-chat-moderator',
  dynamo: { actions: ['GetItem', 'DeleteItem', 'PutItem'] },
  ivsChat: ['DisconnectUser'],
  auth: 'required',
  rateLimit,
  throttle: moderationThrottle,
  summary: 'Remove a chat moderator',
  description:
    "The creator removes a moderator: IVS Chat ends their open chat connections at once (their tokens carried the moderator's capabilities for the session), and their next token is a viewer's. A token fetched before the removal and used after it keeps its capabilities for its session, which for a moderator lasts 10 minutes (IVS Chat cannot revoke a token). Recorded, and announced as `chat.moderator_removed`.",
  request: { path: accountPath },
  responses: () => ({
    204: { description: 'Removed' },
    403: notYours,
    404: {
      description: 'The account is not a moderator of the channel',
      message: 'This account is not a moderator of the channel',
    },
  }),
});

export const createChatBan = /* @__PURE__ */ (() =>
  contract({
    operationId: 'createChatBan',
    tag,
    method: 'POST',
    path: '/studio/chat/bans',
    handler: 'chat/create-chat-ban',
    // GetItem: roles, the creator, the target's account. PutItem: the ban and its record.
    dynamo: { actions: ['GetItem', 'PutItem'] },
    ivsChat: ['DisconnectUser', 'SendEvent'],
    auth: 'required',
    rateLimit,
    throttle: moderationThrottle,
    summary: 'Ban (or time out) an account from the chat',
    description: `Bans the account (\`duration_seconds\`: a timeout; null: until lifted): stored first, so no new token is issued to it; then IVS Chat disconnects it at once and an \`app:DELETE_BY_USER\` event (attributes \`UserId\`, \`Reason\`) tells every client to remove its recent messages. By account, so a ban survives name changes. A moderator cannot ban the creator or another moderator. ${channelQueryNote} Recorded, and announced as \`chat.user_banned\`.`,
    request: { query: studioChatQuery, body: banBody },
    responses: () => ({
      201: { description: 'The ban as stored', data: chatResponses().ChatBan },
      403: notYours,
      404: noRoom,
      409: { description: 'The caller named themselves', message: 'You cannot ban yourself' },
    }),
  }))();

export const deleteChatBan = /* @__PURE__ */ (() =>
  contract({
    operationId: 'deleteChatBan',
    tag,
    method: 'DELETE',
    path: '/studio/chat/bans/{account_id}',
    handler: 'chat/delete-chat-ban',
    dynamo: { actions: ['GetItem', 'DeleteItem', 'PutItem'] },
    auth: 'required',
    rateLimit,
    throttle: moderationThrottle,
    summary: 'Lift a ban',
    description: `The account may get chat tokens again. A moderator cannot lift another moderator's ban (403), as they cannot make one. ${channelQueryNote} Recorded, and announced as \`chat.user_unbanned\`.`,
    request: { query: studioChatQuery, path: accountPath },
    responses: () => ({
      204: { description: 'Lifted' },
      403: notYours,
      404: {
        description: 'The account is not banned (or `channel` does not exist)',
        message: 'This account is not banned from the channel',
      },
    }),
  }))();

export const deleteChatMessage = /* @__PURE__ */ (() =>
  contract({
    operationId: 'deleteChatMessage',
    tag,
    method: 'DELETE',
    path: '/studio/chat/messages/{message_id}',
    handler: 'chat/delete-chat-message',
    dynamo: { actions: ['GetItem', 'PutItem'] },
    ivsChat: ['DeleteMessage'],
    auth: 'required',
    rateLimit,
    throttle: moderationThrottle,
    summary: 'Delete a chat message',
    description: `IVS Chat sends every connected client a DELETE_MESSAGE event for the message (with \`reason\`, when given). ${channelQueryNote} Recorded, and announced as \`chat.message_deleted\`.`,
    request: { query: deleteMessageQuery, path: messagePath },
    responses: () => ({
      204: { description: 'Deleted' },
      403: notYours,
      404: noRoom,
    }),
  }))();

export const chatContracts: readonly Contract[] = [
  createChatToken,
  getChatSettings,
  putChatSettings,
  putChatModerator,
  deleteChatModerator,
  createChatBan,
  deleteChatBan,
  deleteChatMessage,
];
