import type { RouteRow } from '../../shared/http/route.ts';

/**
 * The account function no HTTP route invokes (infra/accounts.ts), described by route-row fields
 * so its grants and environment come from the same derivation as every function's
 * (shared/platform/access.ts). Its `path` names the trigger.
 */

/** Consumer of the account jobs queue: exports built, deleted accounts purged (docs/accounts.md). */
export const accountJobsRow = {
  method: 'POST',
  path: '$queue/account-jobs',
  handler: 'accounts/run-account-jobs',
  auth: 'none',
  // GetItem: the account, its export, creator, payout account, reports, watch sessions, reaction
  // records, webhook subscriptions. Query: the account's partition; GSI1: its refresh families and
  // webhook subscriptions. UpdateItem: the export's status, reaction counter shards, the webhook
  // owner count (in their transactions). DeleteItem: every item of the account. PutItem: the
  // quarantine reservations of its email and handle (in the purge's last transaction).
  // BatchWriteItem: the partition's remaining items.
  dynamo: {
    actions: ['GetItem', 'Query', 'UpdateItem', 'DeleteItem', 'PutItem', 'BatchWriteItem'],
    indexes: ['GSI1'],
  },
  // S3: the export document written (PutObject), deleted with the account (DeleteObject). Stripe:
  // subscriptions cancelled, the customer deleted. IVS: a creator's channel deleted; IVS Chat:
  // its chat room.
  needs: ['exports-writer', 'stripe'],
  ivs: ['DeleteChannel'],
  ivsChat: ['DeleteRoom'],
  memory: {
    mb: 512,
    reason: 'an export holds every item of an account in memory while it writes the document',
  },
  summary: 'Account jobs: exports built, deleted accounts purged (docs/accounts.md)',
  tag: 'Workers',
} as const satisfies RouteRow;

export const accountWorkers: readonly RouteRow[] = [accountJobsRow];
