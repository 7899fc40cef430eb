import type { ShowRecord } from '../catalog/model.ts';
import { searchIds } from '../search/search-index.ts';
import type { SearchShowsQuery } from './schemas.ts';
import { getShows } from './show-repository.ts';
import { showOrder } from './show-ranking.ts';

/**
 * One page of shows matching a search query, filtered and sorted on the index facets (relevance
 * first, then most popular; or the requested sort, applied to the best matches the bounded read
 * found: docs/search.md): reads index items and only the page's shows. `relation` says whether
 * `total` is exact.
 */
export const searchShows = async (
  q: SearchShowsQuery,
): Promise<{ shows: ShowRecord[]; total: number; relation: 'eq' | 'gte' }> => {
  const asShow = (h: { id: string; facets: Record<string, unknown> }) =>
    ({ id: h.id, ...h.facets }) as unknown as ShowRecord;
  const { hits, total, relation } = await searchIds('show', q.q, {
    window: q.page * q.limit,
    keep: (f) =>
      (q.category === 'all' || f.category === q.category) &&
      (q.rating === undefined || f.rating === q.rating) &&
      (q.is_new === undefined || f.is_new === q.is_new) &&
      (q.is_featured === undefined || f.is_featured === q.is_featured),
  });
  hits.sort((a, b) =>
    q.sort
      ? showOrder[q.sort](asShow(a), asShow(b))
      : b.score - a.score || showOrder.most_popular(asShow(a), asShow(b)),
  );
  const page = hits.slice((q.page - 1) * q.limit, q.page * q.limit);
  return { shows: await getShows(page.map((h) => h.id)), total, relation };
};
