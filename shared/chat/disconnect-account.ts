import { DisconnectUserCommand } from '@aws-sdk/client-ivschat';
import { logger, recordMetric } from '../observability/index.ts';
import { chatRoomsOf } from './chat-repository.ts';
import { ivsChatClient } from './client.ts';

/** What IVS Chat tells the account's connections when they end (the `reason` of DisconnectUser). */
export const DISCONNECTED = {
  deleted: 'This account was deleted',
  signedOut: 'Signed out everywhere',
} as const;

/**
 * Ends an account's open chat connections (docs/chat.md "Ending an account's connections"): IVS
 * Chat's DisconnectUser, user id the account id (as its tokens name it), in every room of `rooms`
 * (the rooms it was given tokens for whose session may still be open: `chatRoomsOf`, or
 * `chatRoomsIn` of the partition the purge read). A room that is gone (ResourceNotFoundException)
 * took its connections with it; a user with no connection left is not an error for IVS.
 * Throttling is retried by the client (standard mode, 4 attempts with backoff: shared/chat/client.ts).
 * Anything else is logged by error name and counted (`chat_disconnect_failures`, which alarms:
 * infra/chat.ts), never thrown: the deletion or sign-out it serves goes on. Answers how many
 * rooms failed.
 */
export const disconnectAccount = async (
  accountId: string,
  rooms: readonly string[],
  reason: string,
): Promise<number> => {
  let failed = 0;
  // IVS Chat allows 100 DisconnectUser a second per account: ten rooms at a time.
  for (let i = 0; i < rooms.length; i += 10)
    await Promise.all(
      rooms.slice(i, i + 10).map((roomArn) =>
        ivsChatClient()
          .send(new DisconnectUserCommand({ roomIdentifier: roomArn, userId: accountId, reason }))
          .catch((error: Error) => {
            if (error.name === 'ResourceNotFoundException') return;
            failed += 1;
            recordMetric('chat_disconnect_failures');
            logger.error('chat disconnect failed', { errorName: error.name, roomArn });
          }),
      ),
    );
  return failed;
};

/** `disconnectAccount` in every room where a session of the account may still be open at `now`. */
export const disconnectAccountEverywhere = async (
  accountId: string,
  now: Date,
  reason: string,
): Promise<number> => disconnectAccount(accountId, await chatRoomsOf(accountId, now), reason);
