import type { WorkerRow } from '../../shared/routing/function-row.ts';

/**
 * The account function no HTTP route invokes (infra/accounts.ts): a function row with
 * the trigger that invokes it (WorkerRow), so its grants and environment come from the
 * derivation every function's do (shared/platform/access.ts).
 */

/**
 * Consumer of the account jobs queue: exports built, deleted accounts purged, chat connections
 * ended, password-reset codes stored and mailed (docs/accounts.md).
 */
export const accountJobsRow = {
  trigger: '$queue/account-jobs',
  handler: 'accounts/run-account-jobs',
  timeout: { seconds: 300, reason: 'an export or a purge of a large account (many items, Stripe, IVS)' },
  // GetItem: the account, its export, creator, payout account, reports, watch sessions, reaction
  // records, webhook subscriptions. BatchGetItem: the chat records its chat references name (the
  // export) and its refresh families (consistent). Query: the account's (its refresh families'
  // entries, consistent), creator's, chat's and schedule's partitions; GSI1: its refresh families
  // stored before those entries, webhook subscriptions and a creator's shows. UpdateItem: the export's status,
  // reaction counter shards, the webhook owner count (in their transactions), a closed
  // entitlement, an address's password-reset budget. DeleteItem: every item of the account, a creator's shows and episodes (in
  // transactions). PutItem: the quarantine reservations of its email and handle (in the purge's
  // last transaction), a detached payout account's record, a password-reset code (or its decoy). BatchWriteItem: the rest.
  dynamo: {
    actions: ['GetItem', 'BatchGetItem', 'Query', 'UpdateItem', 'DeleteItem', 'PutItem', 'BatchWriteItem'],
    indexes: ['GSI1'],
  },
  // S3: the export document written (PutObject), deleted with the account (DeleteObject). Stripe:
  // subscriptions cancelled, the customer deleted, a creator's Connect account detached. IVS: a
  // deleted creator's broadcast ended (its stream keys listed and deleted, then StopStream) and
  // its channel deleted; IVS Chat: its chat room, and the account's connections ended in
  // the rooms its token records name (DisconnectUser).
  // Password-reset jobs: the code's MAC (one-time-codes: kms:GenerateMac) and its mail (mailer:
  // ses:SendEmail, and GetItem for the suppression check).
  needs: ['exports-writer', 'stripe', 'mailer', 'one-time-codes'],
  ivs: ['DeleteChannel', 'ListStreamKeys', 'DeleteStreamKey', 'StopStream'],
  ivsChat: ['DeleteRoom', 'DisconnectUser'],
  memory: {
    mb: 512,
    reason: 'an export holds every item of an account in memory while it writes the document',
  },
  summary:
    'Account jobs: exports built, deleted accounts purged, password-reset codes mailed (docs/accounts.md)',
} as const satisfies WorkerRow;

export const accountWorkers: readonly WorkerRow[] = [accountJobsRow];
