import type { RouteRow } from '../../shared/http/route.ts';

const tag = 'Platform';

export const platformRoutes: RouteRow[] = [
  {
    method: 'ANY',
    path: '$default',
    handler: 'platform/not-found',
    auth: 'none',
    table: 'none',
    tag,
    summary: 'Catch-all: any request no route matches gets the 404 error envelope',
  },
];
