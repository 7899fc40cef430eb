import { CHAT_RECHECK_DELAY_SECONDS, type DisconnectReason, type SignedOutSessions } from '../chat/ending.ts';
import { takeChatPassTry } from '../identity/reset-limit-repository.ts';
import { logger, recordMetric } from '../observability/index.ts';
import { enqueueAccountJob } from './jobs.ts';

/**
 * Sign-outs whose chat passes an account may queue an hour through the routes without a budget
 * of their own (`DELETE /me/sessions`, `DELETE /me/sessions/{id}`, `POST /auth/logout`): each
 * pass calls DisconnectUser in every room a signed-out session holds a token for, and IVS Chat
 * allows the AWS account 100 a second (docs/accounts.md "Sessions").
 */
export const CHAT_PASSES_PER_HOUR = 20;

/**
 * Ends the chat connections of the account's signed-out sessions (every one but `keep`, or `only`
 * one) at a sign-out or a deletion (docs/chat.md "Ending an account's connections"): two account
 * jobs, the first pass now and the recheck `CHAT_RECHECK_DELAY_SECONDS` later (a token fetched
 * just before can still connect for a minute), which the account jobs worker carries out
 * (`endChatPass`) with SQS's retries and dead-letter queue. The request only queues: it needs no
 * IVS Chat client and waits for no DisconnectUser. `budgeted`: only within the account's
 * CHAT_PASSES_PER_HOUR (past it nothing is queued; the sign-out itself still happens).
 */
export const endChatConnections = async (
  accountId: string,
  now: Date,
  reason: DisconnectReason,
  sessions: SignedOutSessions = {},
  { budgeted = false } = {},
): Promise<void> => {
  if (budgeted && (await takeChatPassTry(accountId, CHAT_PASSES_PER_HOUR, 3600, now)) !== undefined) {
    recordMetric('chat_passes_over_budget');
    logger.warn('chat passes not queued: the account spent its budget', { accountId });
    return;
  }
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
