import * as z from 'zod/mini';
import { sendMessage } from '../aws/sqs.ts';
import { DISCONNECT_REASONS } from '../chat/ending.ts';
import { setting } from '../config.ts';
import { ACCESS_TOKEN_TTL_SECONDS } from '../identity/access-token.ts';

/**
 * The account jobs queue (SQS; ACCOUNT_JOBS_QUEUE_URL; infra/accounts.ts): what the API asks and
 * the account jobs worker (functions/accounts/run-account-jobs.ts) carries out, with SQS's
 * retries, a dead-letter queue and its alarm. Locally the same SQS calls are served by the local
 * platform's queue stand-in (scripts/local/webhooks-outbox.ts).
 */
export const AccountJob = /* @__PURE__ */ (() => {
  const account_id = z.string().check(z.minLength(1));
  return z.discriminatedUnion('kind', [
    /** An export to build: a job for an export no longer pending is dropped. */
    z.object({ kind: z.literal('export'), account_id, export_id: z.string() }),
    /** A deleted account to purge. */
    z.object({ kind: z.literal('delete'), account_id }),
    /** A deleted creator to withdraw now, not at the purge: its broadcast ended, the creator hidden. */
    z.object({ kind: z.literal('end-stream'), account_id }),
    /**
     * A pass of ending an account's chat connections (`endChatPass`) after a sign-out (of every
     * session but `keep`, or of `only` one) or a deletion at `since`: the first, or the `recheck`.
     */
    z.object({
      kind: z.literal('end-chat'),
      account_id,
      since: z.iso.datetime(),
      reason: z.enum(DISCONNECT_REASONS),
      keep: z.optional(z.string()),
      only: z.optional(z.string()),
      recheck: z.boolean(),
    }),
    /**
     * A password-reset code asked for `email` (`POST /auth/password/forgot`): stored and mailed if
     * an account uses the address, a decoy stored if none does (shared/accounts/password-recovery.ts).
     * The request only queues this, the same for every address, so its answer cannot tell them apart.
     */
    z.object({ kind: z.literal('password-reset'), email: z.string().check(z.minLength(3)) }),
  ]);
})();
export type AccountJob = z.infer<typeof AccountJob>;

/**
 * How long a deletion waits before its purge: the lifetime of an access token. Sign-in and
 * refresh stop at the request, so no token is issued after it; a token issued before it has
 * expired by then, so nothing can write an item of the account after the purge
 * (docs/accounts.md "Deletion"). SQS's longest message delay is exactly 900 s.
 */
export const PURGE_DELAY_SECONDS = ACCESS_TOKEN_TTL_SECONDS;

/** Enqueues `job`, handled after `delaySeconds` (0-900). */
export const enqueueAccountJob = (job: AccountJob, delaySeconds = 0): Promise<void> =>
  sendMessage(setting('ACCOUNT_JOBS_QUEUE_URL'), job, delaySeconds);
