import type { RouteRow } from '../../shared/http/route.ts';

const tag = 'Reactions';
const envelope = 'reactions';

export const reactionRoutes: RouteRow[] = [
  {
    method: 'POST',
    path: '/v3/reactions',
    handler: 'reactions/add-reaction',
    auth: 'required',
    table: 'write',
    envelope,
    tag,
    summary: 'Add an emoji reaction to content (idempotent)',
  },
  {
    method: 'DELETE',
    path: '/v3/reactions',
    handler: 'reactions/remove-reaction',
    auth: 'required',
    table: 'write',
    envelope,
    tag,
    summary: "Remove the caller's emoji reaction (204)",
  },
  {
    method: 'GET',
    path: '/v3/reactions/summary/{targetType}/{targetId}',
    handler: 'reactions/get-reaction-summary',
    auth: 'required',
    table: 'read',
    envelope,
    tag,
    summary: 'Reaction counts per emoji for a target',
  },
];
