import { searchIds } from '../search/search-index.ts';
import type { CreatorRecord } from '../catalog/model.ts';
import { getCreators } from './creator-repository.ts';
import type { SearchCreatorsQuery } from './schemas.ts';

/**
 * One page of creators matching a search query, best match first (then most popular), filtered
 * by category and tier on the index facets: reads a bounded number of index items
 * (docs/search.md) and only the page's creators. `relation` says whether `total` is exact.
 */
export const searchCreators = async (
  q: SearchCreatorsQuery,
): Promise<{ creators: CreatorRecord[]; total: number; relation: 'eq' | 'gte' }> => {
  const { hits, total, relation } = await searchIds('creator', q.q, {
    window: q.page * q.limit,
    keep: (f) =>
      (q.category === 'all' || f.category === q.category) && (q.tier === 'all' || f.tier === q.tier),
  });
  hits.sort(
    (a, b) =>
      b.score - a.score ||
      Number(b.facets.subscribers ?? 0) - Number(a.facets.subscribers ?? 0) ||
      a.id.localeCompare(b.id),
  );
  const page = hits.slice((q.page - 1) * q.limit, q.page * q.limit);
  return { creators: await getCreators(page.map((h) => h.id)), total, relation };
};
