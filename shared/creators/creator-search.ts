import { searchIds } from '../search/search-index.ts';
import type { CreatorPage } from './creator-listings.ts';
import { getCreators } from './creator-repository.ts';
import type { SearchCreatorsQuery } from './schemas.ts';

/**
 * One page of creators matching a search query, best match first (then most popular), filtered
 * by category and tier on the index facets: reads the index items and only the page's creators.
 */
export const searchCreators = async (q: SearchCreatorsQuery): Promise<CreatorPage> => {
  const hits = (await searchIds('creator', q.q))
    .filter(
      (h) =>
        (q.category === 'all' || h.facets.category === q.category) &&
        (q.tier === 'all' || h.facets.tier === q.tier),
    )
    .sort(
      (a, b) =>
        b.score - a.score ||
        Number(b.facets.subscribers ?? 0) - Number(a.facets.subscribers ?? 0) ||
        a.id.localeCompare(b.id),
    );
  const page = hits.slice((q.page - 1) * q.limit, q.page * q.limit);
  return { creators: await getCreators(page.map((h) => h.id)), total: hits.length };
};
