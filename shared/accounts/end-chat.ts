import {
  CHAT_TOKEN_CONNECTS_WITHIN_MS,
  type DisconnectReason,
  disconnectAccountEverywhere,
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
 * Ends the account's chat connections at a sign-out everywhere (all sessions but `keep`) or a
 * deletion (docs/chat.md "Ending an account's connections"): DisconnectUser now in every room it
 * holds a token for, then the recheck queued for `CHAT_RECHECK_DELAY_SECONDS` later
 * (`recheckChat`: the rooms a token fetched before could have connected in since, and the rooms
 * that failed now), which SQS retries until it succeeds or dead-letters.
 */
export const endChatConnections = async (
  accountId: string,
  now: Date,
  reason: DisconnectReason,
  keep?: string,
): Promise<void> => {
  const failed = await disconnectAccountEverywhere(accountId, now, reason);
  await enqueueAccountJob(
    {
      kind: 'end-chat',
      account_id: accountId,
      since: now.toISOString(),
      reason,
      ...(keep === undefined ? {} : { keep }),
      failed,
    },
    CHAT_RECHECK_DELAY_SECONDS,
  );
};
