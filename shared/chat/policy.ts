import type { ChatBan, ChatSettings } from './chat-repository.ts';

/**
 * Who may do what in a channel's chat (docs/chat.md "Tokens"): a pure function of what the server
 * knows (the channel, its settings, the caller's account, follow, subscription, moderator role
 * and ban) and the time. Nothing from the request reaches it but the caller's verified identity,
 * so nothing a client sends can widen what a token allows.
 */

export const CHAT_CAPABILITIES = ['SEND_MESSAGE', 'DELETE_MESSAGE', 'DISCONNECT_USER'] as const;
export type ChatCapability = (typeof CHAT_CAPABILITIES)[number];

/** How long a chat session lasts before the client asks for a new token (and the rules apply again). */
export const CHAT_SESSION_MINUTES = 60;
/**
 * A moderator's session: short, because IVS Chat revokes no token. Removing a moderator ends their
 * open connections (DisconnectUser), but a token fetched before and used after the removal still
 * carries DELETE_MESSAGE and DISCONNECT_USER for its whole session (docs/chat.md "Moderation").
 */
export const CHAT_MODERATOR_SESSION_MINUTES = 10;

export type ChatBadge = 'creator' | 'moderator' | 'subscriber';

/** Is `ban` in force at `now`? */
export const isBanned = (ban: ChatBan | undefined, now: Date): boolean =>
  ban !== undefined && (ban.until === null || Date.parse(ban.until) > now.getTime());

/** Why a token is read-only (the client shows it beside a disabled input). */
export const READ_ONLY_REASONS = [
  'sign_in',
  'followers_only',
  'subscribers_only',
  'established_only',
] as const;
export type ReadOnlyReason = (typeof READ_ONLY_REASONS)[number];

/** A signed-in caller as the server knows them. */
export interface ChatViewer {
  accountId: string;
  displayName: string;
  /** When the account was created (ISO 8601). */
  accountCreatedAt: string;
  /** When they followed the creator (ISO 8601), or null. */
  followedAt: string | null;
  /** They hold a subscription to the creator that grants now (shared/entitlements). */
  subscribed: boolean;
  moderator: boolean;
  ban: ChatBan | undefined;
}

export interface ChatChannel {
  creatorId: string;
  /** The channel's paywall (as playback: `channel.requires_subscription`). */
  requiresSubscription: boolean;
}

export type ChatDecision =
  | { kind: 'refused'; reason: 'banned' | 'subscription_required'; message: string }
  | {
      kind: 'token';
      capabilities: ChatCapability[];
      /** IVS token attributes: what other clients see of the sender; nothing secret. */
      attributes: Record<string, string>;
      readOnlyReason: ReadOnlyReason | null;
      /** The session's length (CreateChatToken's `sessionDurationInMinutes`). */
      sessionMinutes: number;
    };

const minutesSince = (iso: string, now: Date) => (now.getTime() - Date.parse(iso)) / 60_000;

const attributesOf = (viewer: ChatViewer, badges: ChatBadge[]) => ({
  display_name: viewer.displayName,
  badges: badges.join(','),
});

/** Why a signed-in viewer without a role may not send now, or null when they may. */
const modeExclusion = (settings: ChatSettings, viewer: ChatViewer, now: Date): ReadOnlyReason | null => {
  if (settings.subscribers_only && !viewer.subscribed) return 'subscribers_only';
  const followers = settings.followers_only_minutes;
  if (followers !== null && (viewer.followedAt === null || minutesSince(viewer.followedAt, now) < followers))
    return 'followers_only';
  const established = settings.established_only_minutes;
  if (established !== null && minutesSince(viewer.accountCreatedAt, now) < established)
    return 'established_only';
  return null;
};

/**
 * The decision: anonymous callers read only; the creator and their moderators send, delete and
 * disconnect (moderators for a shorter session: CHAT_MODERATOR_SESSION_MINUTES); a banned or timed-out account gets no token at all; a paywalled channel's chat is
 * for those playback admits (an entitlement that grants now), its creator and moderators; a
 * viewer the room's mode excludes reads only, with the reason.
 */
export const decideChatAccess = (input: {
  channel: ChatChannel;
  settings: ChatSettings;
  viewer: ChatViewer | undefined;
  now: Date;
}): ChatDecision => {
  const { channel, settings, viewer, now } = input;
  const paywalled = {
    kind: 'refused',
    reason: 'subscription_required',
    message: 'This channel requires an active subscription',
  } as const;
  if (!viewer) {
    if (channel.requiresSubscription) return paywalled;
    return {
      kind: 'token',
      capabilities: [],
      attributes: {},
      readOnlyReason: 'sign_in',
      sessionMinutes: CHAT_SESSION_MINUTES,
    };
  }
  const badges: ChatBadge[] = [];
  if (viewer.accountId === channel.creatorId) {
    badges.push('creator');
    return {
      kind: 'token',
      capabilities: [...CHAT_CAPABILITIES],
      attributes: attributesOf(viewer, badges),
      readOnlyReason: null,
      sessionMinutes: CHAT_SESSION_MINUTES,
    };
  }
  if (isBanned(viewer.ban, now))
    return { kind: 'refused', reason: 'banned', message: 'You are banned from this chat' };
  if (viewer.moderator) badges.push('moderator');
  if (viewer.subscribed) badges.push('subscriber');
  if (channel.requiresSubscription && !viewer.subscribed && !viewer.moderator) return paywalled;
  if (viewer.moderator)
    return {
      kind: 'token',
      capabilities: [...CHAT_CAPABILITIES],
      attributes: attributesOf(viewer, badges),
      readOnlyReason: null,
      sessionMinutes: CHAT_MODERATOR_SESSION_MINUTES,
    };
  const excluded = modeExclusion(settings, viewer, now);
  return {
    kind: 'token',
    capabilities: excluded ? [] : ['SEND_MESSAGE'],
    attributes: attributesOf(viewer, badges),
    readOnlyReason: excluded,
    sessionMinutes: CHAT_SESSION_MINUTES,
  };
};
