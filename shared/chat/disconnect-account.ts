import { DisconnectUserCommand } from '@aws-sdk/client-ivschat';
import { logger, recordMetric } from '../observability/index.ts';
import { type ChatTokenRecord, chatTokensOf, roomsOf } from './chat-repository.ts';
import { ivsChatClient } from './client.ts';

/** What IVS Chat tells the account's connections when they end (the `reason` of DisconnectUser). */
export const DISCONNECTED = {
  deleted: 'This account was deleted',
  signedOut: 'Signed out everywhere',
  sessionSignedOut: 'This session was signed out',
} as const;
export type DisconnectReason = keyof typeof DISCONNECTED;

/**
 * Ends an account's open chat connections (docs/chat.md "Ending an account's connections"): IVS
 * Chat's DisconnectUser, user id the account id (as its tokens name it), in every room of `rooms`
 * (the rooms it was given tokens for whose session may still be open). A room that is gone
 * (ResourceNotFoundException) took its connections with it; a user with no connection left is not
 * an error for IVS. Throttling is retried by the client (standard mode, 4 attempts with backoff:
 * shared/chat/client.ts). Anything else is logged by error name and counted
 * (`chat_disconnect_failures`, which alarms: infra/chat.ts), never thrown: the deletion or
 * sign-out it serves goes on, and its recheck (`recheckChat`) tries those rooms again. Answers the
 * rooms that failed.
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

/**
 * Whose chat connections a sign-out ends: those of every session but `keep` (a deletion, a reset:
 * none kept; "sign out everywhere" and a password change keep the caller's own), or of `only` one
 * session (`DELETE /me/sessions/{id}`). A record without a session (written before stop 57, or
 * for a token without one) counts as any session but one named by `only`.
 */
export interface SignedOutSessions {
  keep?: string;
  only?: string;
}

const signedOut = (token: ChatTokenRecord, sessions: SignedOutSessions): boolean =>
  sessions.only !== undefined
    ? token.session_id === sessions.only
    : token.session_id === undefined || token.session_id !== sessions.keep;

/**
 * `disconnectAccount` in every room where a signed-out session of the account was given a token
 * whose session may still be open at `now`. IVS disconnects a user, not a session: a kept session
 * connected in the same room is disconnected too (its app asks for a new token); in rooms where
 * only it holds a token it is left alone.
 */
export const disconnectSignedOut = async (
  accountId: string,
  now: Date,
  reason: DisconnectReason,
  sessions: SignedOutSessions,
): Promise<string[]> =>
  disconnectAccount(
    accountId,
    roomsOf((await chatTokensOf(accountId, now)).filter((token) => signedOut(token, sessions))),
    reason,
  );

/**
 * How long after it is made a chat token can still open a connection: IVS Chat's token is valid
 * for one minute (its CLI reference: "The token is valid for one minute, and a connection
 * (session) established with the token is valid for the specified duration"), plus a minute for
 * the clocks of IVS and the function.
 */
export const CHAT_TOKEN_CONNECTS_WITHIN_MS = 2 * 60_000;

/**
 * The rooms where a token made for a signed-out session may have opened a connection after
 * `since` (a sign-out or deletion ended the connections open then): its token made at most
 * `CHAT_TOKEN_CONNECTS_WITHIN_MS` before. Tokens made later than `since` count too: the token route
 * checked the session just before it. Records without a time (before stop 57) have lapsed.
 */
export const roomsToRecheck = (
  tokens: readonly ChatTokenRecord[],
  since: Date,
  sessions: SignedOutSessions,
): string[] =>
  roomsOf(
    tokens.filter(
      (token) =>
        signedOut(token, sessions) &&
        token.issued_at !== undefined &&
        Date.parse(token.issued_at) >= since.getTime() - CHAT_TOKEN_CONNECTS_WITHIN_MS,
    ),
  );

/**
 * The second pass after a sign-out or deletion at `since` (the account jobs worker, after
 * `CHAT_RECHECK_DELAY_SECONDS`): DisconnectUser again in the rooms where a token fetched before
 * could have connected since (`roomsToRecheck`) and in the rooms the first pass failed in
 * (`failed`). Throws when any fails, so SQS delivers the job again (then its dead-letter queue).
 */
export const recheckChat = async (
  accountId: string,
  pass: { since: Date; reason: DisconnectReason; sessions: SignedOutSessions; failed: readonly string[] },
  now: Date,
): Promise<number> => {
  const rooms = [
    ...new Set([
      ...pass.failed,
      ...roomsToRecheck(await chatTokensOf(accountId, now), pass.since, pass.sessions),
    ]),
  ];
  const failed = await disconnectAccount(accountId, rooms, pass.reason);
  if (failed.length > 0)
    throw new Error(`DisconnectUser failed in ${failed.length} of ${rooms.length} rooms`);
  return rooms.length;
};
