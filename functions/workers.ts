import type { RouteRow } from '../shared/http/route.ts';

/**
 * Functions that no HTTP route invokes, described by the same row fields the routes use for what
 * a function may do (DynamoDB actions and indexes), so the stack's grants and environment and
 * the local platform's guard come from one derivation (shared/platform/access.ts). Their `path`
 * names the trigger, never an API route (they are not in the route table).
 */
export const projectorRow = {
  method: 'POST',
  path: '$stream/projector',
  handler: 'projector/project-changes',
  auth: 'none',
  // GetItem: view sets, a show's category. Query: a show's episodes. BatchWriteItem: views.
  // PutItem, UpdateItem: a view set with its list totals (one transaction), the creator an
  // account becomes and the channel-number counter.
  dynamo: { actions: ['GetItem', 'Query', 'BatchWriteItem', 'PutItem', 'UpdateItem'] },
  memory: { mb: 512, reason: 'a batch of 100 records, each a few reads and writes; more CPU, faster drains' },
  summary: 'Projector: keeps every view of the catalogue true from the table stream (docs/projections.md)',
  tag: 'Workers',
} as const satisfies RouteRow;

export const workers: readonly RouteRow[] = [projectorRow];
