import * as z from 'zod/mini';
import { described } from '../schema/schema-meta.ts';

/** The `meta_data.total_relation` of the search endpoints (docs/search.md): is `total` exact? */
export const totalRelation = /* @__PURE__ */ (() =>
  described(
    z.enum(['eq', 'gte']),
    '`eq`: `total` counts every match. `gte`: more matched than the search reads (it reads the best matches, at most `page` × `limit` + 1 per index lookup and 200 deep), so `total` is a lower bound (at least one more than this page reaches, so a next page can always be asked for; it may come back shorter) and `total_pages` may grow on later pages; as OpenSearch `track_total_hits`',
    'eq',
  ))();
