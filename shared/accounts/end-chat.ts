import {
  CHAT_TOKEN_CONNECTS_WITHIN_MS,
  type DisconnectReason,
  disconnectSignedOut,
  type SignedOutSessions,
} from '../chat/disconnect-account.ts';
import { enqueueAccountJob } from './jobs.ts';

/**
 * How long the chat recheck waits after a sign-out or deletion: until no chat token made before it
 * can connect any more (`CHAT_TOKEN_CONNECTS_WITHIN_MS`, counted from the latest moment a token
 * route that checked the session just before can make one: its 10-second timeout later), plus 20
 * seconds.
 */
export const CHAT_RECHECK_DELAY_SECONDS = CHAT_TOKEN_CONNECTS_WITHIN_MS / 1000 + 10 + 20;

/**
 * Ends the chat connections of the account's signed-out sessions (every one but `keep`, or `only`
 * one) at a sign-out or a deletion (docs/chat.md "Ending an account's connections"):
 * DisconnectUser now in every room they hold a token for, then the recheck queued for
 * `CHAT_RECHECK_DELAY_SECONDS` later (`recheckChat`: the rooms a token fetched before could have
 * connected in since, and the rooms that failed now), which SQS retries until it succeeds or
 * dead-letters.
 */
export const endChatConnections = async (
  accountId: string,
  now: Date,
  reason: DisconnectReason,
  sessions: SignedOutSessions = {},
): Promise<void> => {
  const failed = await disconnectSignedOut(accountId, now, reason, sessions);
  await enqueueAccountJob(
    {
      kind: 'end-chat',
      account_id: accountId,
      since: now.toISOString(),
      reason,
      ...(sessions.keep === undefined ? {} : { keep: sessions.keep }),
      ...(sessions.only === undefined ? {} : { only: sessions.only }),
      failed,
    },
    CHAT_RECHECK_DELAY_SECONDS,
  );
};
