import type { RouteRow } from '../../shared/http/route.ts';

const tag = 'Creators';

export const creatorRoutes: RouteRow[] = [
  { method: 'GET', path: '/creators', handler: 'creators/list-creators', auth: 'none', table: 'read', tag, summary: 'List creators with category/tier filters and sorting' },
  { method: 'GET', path: '/creators/live', handler: 'creators/list-live-creators', auth: 'none', table: 'read', tag, summary: 'Creators live now, with their stream' },
  { method: 'GET', path: '/creators/featured', handler: 'creators/list-featured-creators', auth: 'none', table: 'read', tag, summary: 'Featured creators' },
  { method: 'GET', path: '/creators/search', handler: 'creators/search-creators', auth: 'none', table: 'read', tag, summary: 'Search creators by name or handle' },
  { method: 'GET', path: '/creators/tiers', handler: 'creators/list-tiers', auth: 'none', table: 'none', tag, summary: 'Creator tiers' },
  { method: 'GET', path: '/categories', handler: 'creators/list-categories', auth: 'none', table: 'read', tag, summary: 'Creator categories with creator counts' },
  { method: 'GET', path: '/creators/{id}', handler: 'creators/get-creator', auth: 'optional', table: 'read', tag, summary: 'Creator detail as an array of typed blocks' },
  { method: 'GET', path: '/tv/v3/creators/{id}', handler: 'creators/get-tv-creator', auth: 'optional', table: 'read', tag, summary: 'TV creator detail with channels and current/next programs' },
  { method: 'GET', path: '/tv/v3/creators/{id}/series', handler: 'creators/list-creator-series', auth: 'none', table: 'read', tag, summary: 'A creator\'s series with seasons and episodes (paginated)' },
];
