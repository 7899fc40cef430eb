/**
 * The benchmark's sample requests: one or more per read endpoint, with ids from the demo
 * catalogue (seed 42). `catalogue` marks the ones measured for growth at 10x scale.
 */
export interface SampleRequest {
  name: string;
  route: string;
  path: string;
  query?: Record<string, string>;
  auth?: boolean;
  catalogue?: boolean;
}

/** Catalogue search samples named `search <kind>[ <label>]`, one per query. */
const searches = (kind: 'creators' | 'shows', queries: Record<string, string>): SampleRequest[] =>
  Object.entries(queries).map(([label, q]) => ({
    name: `search ${kind}${label ? ` ${label}` : ''}`,
    route: `GET /${kind}/search`,
    path: `/${kind}/search`,
    query: { q },
    catalogue: true,
  }));

export const SAMPLE_REQUESTS: SampleRequest[] = [
  {
    name: 'list creators',
    route: 'GET /creators',
    path: '/creators',
    query: { category: 'comedy' },
    catalogue: true,
  },
  {
    name: 'list creators p5',
    route: 'GET /creators',
    path: '/creators',
    query: { page: '5', limit: '10' },
    catalogue: true,
  },
  { name: 'live creators', route: 'GET /creators/live', path: '/creators/live', catalogue: true },
  { name: 'featured creators', route: 'GET /creators/featured', path: '/creators/featured', catalogue: true },
  // Search, one sample per kind of query (docs/search.md): a common first name, a rare word, a
  // typo, two words (an exact full name), a two-letter prefix.
  ...searches('creators', {
    '': 'maya',
    rare: 'aaliyah',
    typo: 'ferreria',
    'two words': 'jonas vargas',
    prefix: 'ma',
  }),
  { name: 'categories', route: 'GET /categories', path: '/categories', catalogue: true },
  { name: 'tiers', route: 'GET /creators/tiers', path: '/creators/tiers' },
  { name: 'creator detail', route: 'GET /creators/{id}', path: '/creators/cr_0002' },
  { name: 'tv creator', route: 'GET /tv/v3/creators/{id}', path: '/tv/v3/creators/cr_0002' },
  {
    name: 'creator series',
    route: 'GET /tv/v3/creators/{id}/series',
    path: '/tv/v3/creators/cr_0002/series',
  },
  { name: 'list shows', route: 'GET /shows', path: '/shows', query: { sort: 'trending' }, catalogue: true },
  { name: 'new releases', route: 'GET /shows/new-releases', path: '/shows/new-releases', catalogue: true },
  { name: 'featured shows', route: 'GET /shows/featured', path: '/shows/featured', catalogue: true },
  // A word rare at 1x and common at 10x, a common title word, a rare word, a typo, two words,
  // a one-letter prefix, an exact full title that other titles start with.
  ...searches('shows', {
    '': 'kitchen',
    common: 'midnight',
    rare: 'wheel',
    typo: 'midnigth',
    'two words': 'tiny kitchen',
    prefix: 's',
    'exact title': 'midnight laughs',
  }),
  { name: 'show categories', route: 'GET /shows/categories', path: '/shows/categories', catalogue: true },
  { name: 'show detail', route: 'GET /shows/{id}', path: '/shows/sh_0001' },
  { name: 'tv show', route: 'GET /tv/v3/shows/{id}', path: '/tv/v3/shows/sh_0001' },
  {
    name: 'most viewed',
    route: 'GET /shows/episodes/most-viewed',
    path: '/shows/episodes/most-viewed',
    catalogue: true,
  },
  {
    name: 'categories top',
    route: 'GET /shows/categories-top',
    path: '/shows/categories-top',
    catalogue: true,
  },
  { name: 'home', route: 'GET /home', path: '/home', catalogue: true },
  { name: 'home hero', route: 'GET /home/hero', path: '/home/hero', catalogue: true },
  { name: 'home live', route: 'GET /home/live', path: '/home/live', catalogue: true },
  {
    name: 'schedule',
    route: 'GET /creators/{id}/channel/schedule',
    path: '/creators/cr_0001/channel/schedule',
    query: { timezone: 'America/New_York' },
  },
  {
    name: 'schedule current',
    route: 'GET /creators/{id}/channel/schedule/current',
    path: '/creators/cr_0001/channel/schedule/current',
  },
  { name: 'guide', route: 'GET /tv/v3/guide/schedule', path: '/tv/v3/guide/schedule', query: { hours: '3' } },
  {
    name: 'reaction summary',
    route: 'GET /v3/reactions/summary/{targetType}/{targetId}',
    path: '/v3/reactions/summary/VIDEO/ep_0001_s1e01',
    auth: true,
  },
];
