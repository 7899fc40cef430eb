import { DisconnectUserCommand } from '@aws-sdk/client-ivschat';
import { logger, recordMetric } from '../observability/index.ts';
import { type ChatTokenRecord, chatTokensOf, roomsOf } from './chat-repository.ts';
import { ivsChatClient } from './client.ts';
import {
  CHAT_TOKEN_CONNECTS_WITHIN_MS,
  DISCONNECTED,
  type DisconnectReason,
  type SignedOutSessions,
} from './ending.ts';

/**
 * Ends an account's open chat connections (docs/chat.md "Ending an account's connections"): IVS
 * Chat's DisconnectUser, user id the account id (as its tokens name it), in every room of `rooms`
 * (the rooms it was given tokens for whose session may still be open). A room that is gone
 * (ResourceNotFoundException) took its connections with it; a user with no connection left is not
 * an error for IVS. Throttling is retried by the client (standard mode, 4 attempts with backoff:
 * shared/chat/client.ts). Anything else is logged by error name and counted
 * (`chat_disconnect_failures`, which alarms: infra/chat.ts), not thrown: the other rooms are
 * still called (a pass then throws, so SQS retries it: `endChatPass`; the purge goes on). Answers
 * the rooms that failed.
 */
export const disconnectAccount = async (
  accountId: string,
  rooms: readonly string[],
  reason: DisconnectReason,
): Promise<string[]> => {
  const failed: string[] = [];
  // IVS Chat allows 100 DisconnectUser a second per account: ten rooms at a time.
  for (let i = 0; i < rooms.length; i += 10)
    await Promise.all(
      rooms.slice(i, i + 10).map((roomArn) =>
        ivsChatClient()
          .send(
            new DisconnectUserCommand({
              roomIdentifier: roomArn,
              userId: accountId,
              reason: DISCONNECTED[reason],
            }),
          )
          .catch((error: Error) => {
            if (error.name === 'ResourceNotFoundException') return;
            failed.push(roomArn);
            recordMetric('chat_disconnect_failures');
            logger.error('chat disconnect failed', { errorName: error.name, roomArn });
          }),
      ),
    );
  return failed;
};

const signedOut = (token: ChatTokenRecord, sessions: SignedOutSessions): boolean =>
  sessions.only !== undefined
    ? token.session_id === sessions.only
    : token.session_id === undefined || token.session_id !== sessions.keep;

/** A pass of ending an account's chat connections, after a sign-out or deletion at `since`. */
export interface ChatPass {
  since: Date;
  reason: DisconnectReason;
  sessions: SignedOutSessions;
  /** The second pass, `CHAT_RECHECK_DELAY_SECONDS` later. */
  recheck: boolean;
}

/**
 * The rooms a pass disconnects the account in, from its token records: the first pass, every room
 * a signed-out session holds a token for whose session may still be open; the recheck, only those
 * where that token may have opened a connection after `since` (the first pass ended those open
 * then): made at most `CHAT_TOKEN_CONNECTS_WITHIN_MS` before, or after (the token route checked
 * the session just before it). Records without a time (before stop 57) have lapsed by a recheck.
 * IVS disconnects a user, not a session: a kept session connected in one of these rooms is
 * disconnected too (its app asks for a new token); in rooms where only it holds a token it is
 * left alone.
 */
export const roomsToEnd = (tokens: readonly ChatTokenRecord[], pass: Omit<ChatPass, 'reason'>): string[] =>
  roomsOf(
    tokens.filter(
      (token) =>
        signedOut(token, pass.sessions) &&
        (!pass.recheck ||
          (token.issued_at !== undefined &&
            Date.parse(token.issued_at) >= pass.since.getTime() - CHAT_TOKEN_CONNECTS_WITHIN_MS)),
    ),
  );

/**
 * One pass (the account jobs worker; shared/accounts/end-chat.ts queues both): DisconnectUser in
 * `roomsToEnd`. Throws when any room fails, so SQS delivers the job again (then its dead-letter
 * queue, alarmed). Answers how many rooms it called.
 */
export const endChatPass = async (accountId: string, pass: ChatPass, now: Date): Promise<number> => {
  const rooms = roomsToEnd(await chatTokensOf(accountId, now), pass);
  const failed = await disconnectAccount(accountId, rooms, pass.reason);
  if (failed.length > 0)
    throw new Error(`DisconnectUser failed in ${failed.length} of ${rooms.length} rooms`);
  return rooms.length;
};
