import type { RouteRow } from '../../shared/routing/route.ts';

/**
 * The mail function no HTTP route invokes (infra/mail.ts), described by route-row fields so its
 * grants and environment come from the same derivation as every function's
 * (shared/platform/access.ts). Its `path` names the trigger.
 */

/** Consumer of the mail feedback queue: SES bounces and complaints mark addresses undeliverable. */
export const mailFeedbackRow = {
  method: 'POST',
  path: '$queue/mail-feedback',
  handler: 'mail/record-feedback',
  auth: 'none',
  // PutItem: the address's suppression item (shared/mail/suppression.ts).
  dynamo: { actions: ['PutItem'] },
  summary: 'Mail feedback: SES permanent bounces and complaints mark addresses undeliverable',
  tag: 'Workers',
} as const satisfies RouteRow;

export const mailWorkers: readonly RouteRow[] = [mailFeedbackRow];
