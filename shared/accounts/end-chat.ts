import { CHAT_RECHECK_DELAY_SECONDS, type DisconnectReason, type SignedOutSessions } from '../chat/ending.ts';
import { enqueueAccountJob } from './jobs.ts';

/**
 * Ends the chat connections of the account's signed-out sessions (every one but `keep`, or `only`
 * one) at a sign-out or a deletion (docs/chat.md "Ending an account's connections"): two account
 * jobs, the first pass now and the recheck `CHAT_RECHECK_DELAY_SECONDS` later (a token fetched
 * just before can still connect for a minute), which the account jobs worker carries out
 * (`endChatPass`) with SQS's retries and dead-letter queue. The request only queues: it needs no
 * IVS Chat client and waits for no DisconnectUser.
 */
export const endChatConnections = async (
  accountId: string,
  now: Date,
  reason: DisconnectReason,
  sessions: SignedOutSessions = {},
): Promise<void> => {
  const job = {
    kind: 'end-chat' as const,
    account_id: accountId,
    since: now.toISOString(),
    reason,
    ...(sessions.keep === undefined ? {} : { keep: sessions.keep }),
    ...(sessions.only === undefined ? {} : { only: sessions.only }),
  };
  await Promise.all([
    enqueueAccountJob({ ...job, recheck: false }),
    enqueueAccountJob({ ...job, recheck: true }, CHAT_RECHECK_DELAY_SECONDS),
  ]);
};
