import type { WorkerRow } from '../../shared/routing/function-row.ts';

/**
 * The mail function no HTTP route invokes (infra/mail.ts), described by function rows with their trigger (WorkerRow) so its
 * grants and environment come from the same derivation as every function's
 * (shared/platform/access.ts).
 */

/** Consumer of the mail feedback queue: SES bounces and complaints mark addresses undeliverable. */
export const mailFeedbackRow = {
  trigger: '$queue/mail-feedback',
  handler: 'mail/record-feedback',
  // PutItem: the address's suppression item (shared/mail/suppression-repository.ts).
  dynamo: { actions: ['PutItem'] },
  summary: 'Mail feedback: SES permanent bounces and complaints mark addresses undeliverable',
} as const satisfies WorkerRow;

export const mailWorkers: readonly WorkerRow[] = [mailFeedbackRow];
