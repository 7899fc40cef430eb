import type { RouteRow } from '../../shared/http/route.ts';

const tag = 'Home';

export const homeRoutes: RouteRow[] = [
  {
    method: 'GET',
    path: '/home',
    handler: 'home/get-home',
    dynamo: { actions: ['GetItem'] },
    auth: 'optional',
    tag,
    summary: 'Home screen: ordered sections from the stored layout (plus Continue Watching when signed in)',
  },
  {
    method: 'GET',
    path: '/home/hero',
    handler: 'home/get-hero',
    dynamo: { actions: ['BatchGetItem', 'Query'] },
    auth: 'none',
    tag,
    summary: 'Hero carousel slides',
  },
  {
    method: 'GET',
    path: '/home/live',
    handler: 'home/list-live-streams',
    dynamo: { actions: ['BatchGetItem'] },
    auth: 'none',
    tag,
    summary: 'Streams of creators live now',
  },
];
