/**
 * The layers of shared/ (docs/architecture.md "The layers"), lowest first. A folder imports folders
 * of its own layer or of a lower one, never of a higher one, and no two folders import each other
 * (directly or round a cycle): test/architecture/layers.test.ts checks both, and that every
 * folder under shared/ is placed here.
 */
export const LAYERS = {
  /** Plumbing and models every layer uses: the table, typed domain errors, zod helpers, the catalogue model. */
  leaves: [
    'aws',
    'errors',
    'db',
    'observability',
    'schema',
    'routing',
    'catalog',
    'playback',
    'mail',
    'search',
  ],
  /** One folder per entity family: keys, named reads and writes, and the logic of that entity alone. */
  entities: [
    'audience',
    'entitlements',
    'identity',
    'ivs',
    'creators',
    'shows',
    'epg',
    'reactions',
    'reports',
  ],
  /** Use cases composing several entities (the creator page, the watch response, studio, workers' jobs). */
  'use cases': [
    'chat',
    'creator-page',
    'watch',
    'channels',
    'studio',
    'home',
    'realtime',
    'payments',
    'stores',
    'projection',
    'analytics',
    'events',
    'webhooks',
    'accounts',
  ],
  /** What every function wraps itself in: the capability table, the HTTP chain, the API reference page. */
  edge: ['platform', 'http', 'openapi'],
} as const;

export type Layer = keyof typeof LAYERS;
