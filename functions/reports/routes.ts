import type { RouteRow } from '../../shared/http/route.ts';

const tag = 'Reports';

export const reportRoutes: RouteRow[] = [
  {
    method: 'POST',
    path: '/reports',
    handler: 'reports/create-report',
    auth: 'required',
    table: 'write',
    throttle: { rate: 5, burst: 10 },
    tag,
    summary: 'Report a video or show for moderation (one report per user per target)',
  },
];
