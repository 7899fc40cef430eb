import type { RouteRow } from '../../shared/http/route.ts';

const tag = 'Home';

export const homeRoutes: RouteRow[] = [
  {
    method: 'GET',
    path: '/home',
    handler: 'home/get-home',
    auth: 'optional',
    table: 'read',
    tag,
    summary: 'Home screen: ordered sections from the stored layout (plus Continue Watching when signed in)',
  },
  {
    method: 'GET',
    path: '/home/hero',
    handler: 'home/get-hero',
    auth: 'none',
    table: 'read',
    tag,
    summary: 'Hero carousel slides',
  },
  {
    method: 'GET',
    path: '/home/live',
    handler: 'home/list-live-streams',
    auth: 'none',
    table: 'read',
    tag,
    summary: 'Streams of creators live now',
  },
];
