import type { RouteRow } from '../../shared/http/route.ts';

const tag = 'Reactions';
const envelope = 'reactions';
/** Reacting is cheap to abuse: 60 changes a minute per account. */
const rateLimit = { limit: 60, windowSeconds: 60, by: 'account' } as const;
/** And at most 100 changes a second across all accounts (API Gateway, before Lambda). */
const throttle = { rate: 100, burst: 200 } as const;

export const reactionRoutes: RouteRow[] = [
  {
    method: 'POST',
    path: '/v3/reactions',
    handler: 'reactions/add-reaction',
    dynamo: { actions: ['PutItem', 'UpdateItem'] },
    rateLimit,
    throttle,
    auth: 'required',
    envelope,
    tag,
    summary: 'Add an emoji reaction to content (idempotent)',
  },
  {
    method: 'DELETE',
    path: '/v3/reactions',
    handler: 'reactions/remove-reaction',
    dynamo: { actions: ['DeleteItem', 'GetItem', 'UpdateItem'] },
    rateLimit,
    throttle,
    auth: 'required',
    envelope,
    tag,
    summary: "Remove the caller's emoji reaction (204)",
  },
  {
    method: 'GET',
    path: '/v3/reactions/summary/{targetType}/{targetId}',
    handler: 'reactions/get-reaction-summary',
    dynamo: { actions: ['Query'] },
    auth: 'required',
    envelope,
    tag,
    summary: 'Reaction counts per emoji for a target',
  },
];
