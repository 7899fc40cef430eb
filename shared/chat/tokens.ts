import { randomUUID } from 'node:crypto';
import { CreateChatTokenCommand } from '@aws-sdk/client-ivschat';
import { requireCreator } from '../creators/creator-repository.ts';
import { followedAt } from '../creators/relationship-repository.ts';
import { getEntitlement, grants } from '../entitlements/entitlement-repository.ts';
import { ForbiddenError, NotFoundError, UnauthorizedError } from '../errors/errors.ts';
import { getAccount } from '../identity/account-repository.ts';
import type { Principal } from '../identity/principal.ts';
import { isLiveSession } from '../identity/refresh-tokens.ts';
import { getBan, getChatSettings, isModerator, recordChatToken } from './chat-repository.ts';
import { ivsChatClient, messagingEndpoint } from './client.ts';
import { type ChatViewer, decideChatAccess } from './policy.ts';
import type { ChatToken } from './schemas.ts';

/**
 * `POST /creators/{id}/channel/chat/token` (docs/chat.md "Tokens"): what the server knows of the
 * caller, the decision (shared/chat/policy.ts), then IVS Chat's CreateChatToken with exactly the
 * decided capabilities and attributes. Signed-in users are IVS users by account id (what bans
 * and DisconnectUser name); anonymous readers get a fresh id each time.
 */

const viewerOf = async (creatorId: string, caller: Principal, now: Date): Promise<ChatViewer> => {
  const { accountId, sessionId } = caller;
  const [account, followed, subscription, moderator, ban, live] = await Promise.all([
    getAccount(accountId),
    followedAt(accountId, creatorId),
    getEntitlement(accountId, { kind: 'subscription', creatorId }),
    isModerator(creatorId, accountId),
    getBan(creatorId, accountId),
    sessionId === undefined ? true : isLiveSession(accountId, sessionId, now),
  ]);
  // An access token outlives its account's deletion by up to 15 minutes (verified without a read:
  // docs/accounts.md "Deletion"); a chat session would outlive it by an hour, past the purge.
  if (account?.deleted_at)
    throw new UnauthorizedError('This account was deleted', {
      error: 'invalid_token',
      description: 'The account was deleted',
    });
  // The access token of a session signed out (DELETE /me/sessions, a password reset) stays valid
  // up to 15 minutes: without this, the connection that sign-out ended came back at once, for a
  // new session's hour (docs/chat.md "Ending an account's connections").
  if (!live)
    throw new UnauthorizedError('This session was signed out: sign in again', {
      error: 'invalid_token',
      description: 'The session was signed out',
    });
  return {
    accountId,
    displayName: account?.handle ?? account?.creator_name ?? accountId,
    accountCreatedAt: account?.created_at ?? now.toISOString(),
    followedAt: followed,
    subscribed: grants(subscription, now),
    moderator,
    ban,
  };
};

export const issueChatToken = async (
  creatorIdOrHandle: string,
  caller: Principal | undefined,
  now: Date,
): Promise<ChatToken> => {
  const accountId = caller?.accountId;
  const creator = await requireCreator(creatorIdOrHandle);
  const roomArn = creator.ivs?.chat_room_arn;
  if (!roomArn) throw new NotFoundError('This channel has no chat');
  const [settings, viewer] = await Promise.all([
    getChatSettings(creator.id),
    caller ? viewerOf(creator.id, caller, now) : undefined,
  ]);
  const decision = decideChatAccess({
    channel: { creatorId: creator.id, requiresSubscription: Boolean(creator.channel.requires_subscription) },
    settings,
    viewer,
    now,
  });
  if (decision.kind === 'refused') throw new ForbiddenError(decision.message);
  // Beside the token, the record of the room an account holds one for (its deletion and "sign out
  // everywhere" disconnect it there: shared/chat/disconnect-account.ts), in parallel: no round trip
  // added. If either fails the caller gets no token, so no account token goes unrecorded.
  const [made] = await Promise.all([
    ivsChatClient().send(
      new CreateChatTokenCommand({
        roomIdentifier: roomArn,
        userId: accountId ?? `anon_${randomUUID()}`,
        capabilities: decision.capabilities,
        attributes: decision.attributes,
        sessionDurationInMinutes: decision.sessionMinutes,
      }),
    ),
    accountId
      ? recordChatToken(
          accountId,
          caller?.sessionId,
          roomArn,
          now,
          new Date(now.getTime() + decision.sessionMinutes * 60_000),
        )
      : undefined,
  ]);
  if (!made.token) throw new Error('IVS Chat CreateChatToken answered without a token');
  return {
    token: made.token,
    token_expires_at: (made.tokenExpirationTime ?? now).toISOString(),
    session_expires_at: (made.sessionExpirationTime ?? now).toISOString(),
    endpoint: messagingEndpoint(),
    capabilities: decision.capabilities,
    read_only_reason: decision.readOnlyReason,
  };
};
