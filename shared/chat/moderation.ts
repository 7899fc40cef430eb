import { DeleteMessageCommand, DisconnectUserCommand, SendEventCommand } from '@aws-sdk/client-ivschat';
import { ConflictError, ForbiddenError, NotFoundError } from '../errors/errors.ts';
import { getAccount } from '../identity/account-repository.ts';
import {
  type ChatAction,
  type ChatActionKind,
  type ChatBan,
  type ChatModerator,
  type ChatSettings,
  deleteBan,
  deleteModerator,
  isModerator,
  putBan,
  putChatSettings,
  putModerator,
  recordAction,
} from './chat-repository.ts';
import { ivsChatClient } from './client.ts';

/**
 * The studio's chat moderation (docs/chat.md "Moderation"): each action on the channel the caller
 * owns or moderates (`?channel=<creator id>`), recorded with who and when in the same
 * transaction as its change; the record becomes a `chat.*` domain event (EventBridge, webhooks).
 */

/** The event clients act on after a ban: remove the user's recent messages from view. */
export const DELETE_BY_USER_EVENT = 'app:DELETE_BY_USER';

import type { StudioChat } from './studio-chat.ts';

export { type StudioChat, studioChat } from './studio-chat.ts';

const requireRoom = (chat: StudioChat): string => {
  if (!chat.roomArn)
    throw new NotFoundError('No chat room yet: create the channel with POST /studio/channel');
  return chat.roomArn;
};

const requireCreatorRole = (chat: StudioChat) => {
  if (chat.role !== 'creator') throw new ForbiddenError('Only the channel’s creator may do this');
};

const action = (
  chat: StudioChat,
  kind: ChatActionKind,
  now: Date,
  fields: Partial<Pick<ChatAction, 'target_account_id' | 'message_id' | 'reason' | 'duration_seconds'>> = {},
): ChatAction => ({
  creator_id: chat.creatorId,
  action: kind,
  by: chat.by,
  at: now.toISOString(),
  target_account_id: fields.target_account_id ?? null,
  message_id: fields.message_id ?? null,
  reason: fields.reason ?? null,
  duration_seconds: fields.duration_seconds ?? null,
});

/** `PUT /studio/chat/settings` (creator or moderator): the whole settings, recorded. */
export const setChatSettings = async (chat: StudioChat, settings: ChatSettings, now: Date) => {
  const terms = [...new Set(settings.blocked_terms.map((term) => term.trim()))];
  const stored = { ...settings, blocked_terms: terms };
  await putChatSettings(chat.creatorId, stored, action(chat, 'settings_changed', now));
  return stored;
};

/** `PUT /studio/chat/moderators/{account_id}` (creator only). */
export const addModerator = async (
  chat: StudioChat,
  accountId: string,
  now: Date,
): Promise<ChatModerator> => {
  requireCreatorRole(chat);
  if (accountId === chat.creatorId) throw new ConflictError('The creator moderates their chat already');
  if (!(await getAccount(accountId))) throw new NotFoundError('Account not found');
  const moderator = { account_id: accountId, added_by: chat.by, added_at: now.toISOString() };
  await putModerator(
    chat.creatorId,
    moderator,
    action(chat, 'moderator_added', now, { target_account_id: accountId }),
  );
  return moderator;
};

/**
 * `DELETE /studio/chat/moderators/{account_id}` (creator only): the role goes, then IVS Chat ends
 * the account's open connections, whose tokens still carry DELETE_MESSAGE and DISCONNECT_USER (a
 * token's capabilities last its session, CHAT_MODERATOR_SESSION_MINUTES for a moderator): the app
 * reconnects with a viewer's token.
 */
export const removeModerator = async (chat: StudioChat, accountId: string, now: Date): Promise<void> => {
  requireCreatorRole(chat);
  const removed = await deleteModerator(
    chat.creatorId,
    accountId,
    action(chat, 'moderator_removed', now, { target_account_id: accountId }),
  );
  if (!removed) throw new NotFoundError('This account is not a moderator of the channel');
  if (chat.roomArn)
    await ivsChatClient().send(
      new DisconnectUserCommand({
        roomIdentifier: chat.roomArn,
        userId: accountId,
        reason: 'Your moderator role was removed',
      }),
    );
};

/**
 * `POST /studio/chat/bans`: the ban is stored first (from then on no token), then IVS Chat
 * disconnects the user at once, then an `app:DELETE_BY_USER` event tells every client to remove
 * the user's recent messages. Disconnecting alone is not banning: the stored ban is what refuses
 * the next token. A moderator cannot ban the creator or another moderator.
 */
export const banUser = async (
  chat: StudioChat,
  ban: { account_id: string; duration_seconds: number | null; reason: string },
  now: Date,
): Promise<ChatBan> => {
  const roomArn = requireRoom(chat);
  const target = ban.account_id;
  if (target === chat.creatorId) throw new ForbiddenError('The creator cannot be banned from their own chat');
  if (target === chat.by) throw new ConflictError('You cannot ban yourself');
  if (chat.role === 'moderator' && (await isModerator(chat.creatorId, target)))
    throw new ForbiddenError('Only the creator may ban a moderator');
  if (!(await getAccount(target))) throw new NotFoundError('Account not found');
  const stored: ChatBan = {
    account_id: target,
    until:
      ban.duration_seconds === null
        ? null
        : new Date(now.getTime() + ban.duration_seconds * 1000).toISOString(),
    reason: ban.reason,
    by: chat.by,
    at: now.toISOString(),
  };
  await putBan(
    chat.creatorId,
    stored,
    action(chat, 'user_banned', now, {
      target_account_id: target,
      reason: ban.reason,
      duration_seconds: ban.duration_seconds,
    }),
  );
  await ivsChatClient().send(
    new DisconnectUserCommand({ roomIdentifier: roomArn, userId: target, reason: ban.reason }),
  );
  await ivsChatClient().send(
    new SendEventCommand({
      roomIdentifier: roomArn,
      eventName: DELETE_BY_USER_EVENT,
      attributes: { UserId: target, Reason: ban.reason },
    }),
  );
  return stored;
};

/**
 * `DELETE /studio/chat/bans/{account_id}`: the account may get tokens again. A moderator cannot
 * lift another moderator's ban, as they cannot make one: a banned moderator keeps the role, so
 * another moderator lifting it would undo the creator's decision.
 */
export const unbanUser = async (chat: StudioChat, accountId: string, now: Date): Promise<void> => {
  if (chat.role === 'moderator' && (await isModerator(chat.creatorId, accountId)))
    throw new ForbiddenError('Only the creator may lift a moderator’s ban');
  const lifted = await deleteBan(
    chat.creatorId,
    accountId,
    action(chat, 'user_unbanned', now, { target_account_id: accountId }),
  );
  if (!lifted) throw new NotFoundError('This account is not banned from the channel');
};

/** `DELETE /studio/chat/messages/{message_id}`: IVS Chat tells every client to remove it. */
export const deleteChatMessage = async (
  chat: StudioChat,
  messageId: string,
  reason: string | undefined,
  now: Date,
): Promise<void> => {
  const roomArn = requireRoom(chat);
  await ivsChatClient().send(
    new DeleteMessageCommand({ roomIdentifier: roomArn, id: messageId, ...(reason ? { reason } : {}) }),
  );
  await recordAction(action(chat, 'message_deleted', now, { message_id: messageId, reason: reason ?? null }));
};
