import type { RouteRow } from '../../shared/http/route.ts';

const tag = 'Reports';
/** Reports feed a human moderation queue: 30 an hour per account is plenty for honest use. */
const rateLimit = { limit: 30, windowSeconds: 3600, by: 'account' } as const;

export const reportRoutes: RouteRow[] = [
  {
    method: 'POST',
    path: '/reports',
    handler: 'reports/create-report',
    auth: 'required',
    table: 'write',
    rateLimit,
    tag,
    summary: 'Report a video or show for moderation (one report per user per target)',
  },
];
