import * as z from 'zod/mini';
import { CATEGORY_IDS, RATING_IDS, type ShowRecord } from '../catalog/model.ts';
import { type CardReader, searchIndex, searchItems } from '../search/search-index.ts';
import type { SearchShowsQuery, ShowSearchHit } from './schemas.ts';
import { showOrder } from './show-ranking.ts';
import { type CreatorLite, type ShowSearchFields, searchShowItem, showSearchFields } from './show-views.ts';

/**
 * Show search (docs/search.md): the index items of a show, carrying its card (with its creator's
 * name: a creator's rename re-projects its shows, shared/projection/projector.ts), and one page of
 * shows matching a query, served from those items alone.
 */

/**
 * A show's card: its search fields as a tuple, in this order (no attribute names, so that a read
 * of 21 index items stays within one 4 KB read unit: ~200 bytes an item). Changing the order or the fields is a
 * view change: deployed tables need one `rebuild-views` run (docs/projections.md).
 */
type ShowCard = [
  title: string,
  thumbnailUrl: string,
  category: ShowRecord['category'],
  rating: ShowRecord['rating'],
  tags: string[],
  /** is_new (1), is_featured (2) and the creator's is_verified (4) as bits. */
  flags: number,
  totalViews: number,
  views7d: number,
  /** released_at in epoch seconds (6 bytes; the ISO text is 24): the `newest` sort's key. */
  releasedAt: number,
  slug: string,
  seasonCount: number,
  creatorId: string,
  creatorName: string,
];

const NEW = 1;
const FEATURED = 2;
const VERIFIED = 4;

const cardOf = (s: ShowSearchFields): ShowCard => [
  s.title,
  s.thumbnail_url,
  s.category,
  s.rating,
  s.tags,
  (s.is_new ? NEW : 0) | (s.is_featured ? FEATURED : 0) | (s.creator.is_verified ? VERIFIED : 0),
  s.total_views,
  s.views_7d,
  Math.floor(Date.parse(s.released_at) / 1000),
  s.slug,
  s.season_count,
  s.creator_id,
  s.creator.name,
];

/** A stored card read back: ShowCard's layout, or not a card (built on the first search). */
let cardSchema: z.ZodMiniType<ShowCard> | undefined;
const showCard = () =>
  (cardSchema ??= z.tuple([
    z.string(),
    z.string(),
    z.enum(CATEGORY_IDS),
    z.enum(RATING_IDS),
    z.array(z.string()),
    z.int(),
    z.number(),
    z.number(),
    // Epoch seconds a Date can hold (toISOString throws beyond).
    z.int().check(z.minimum(-8.64e9), z.maximum(8.64e9)),
    z.string(),
    z.number(),
    z.string(),
    z.string(),
  ]));

const cards: CardReader<ShowSearchFields> = {
  read: (id, stored) => {
    const card = showCard().safeParse(stored);
    if (!card.success) return undefined;
    const [
      title,
      thumbnail_url,
      category,
      rating,
      tags,
      flags,
      total_views,
      views_7d,
      released,
      slug,
      season_count,
      creator_id,
      name,
    ] = card.data;
    return {
      id,
      title,
      thumbnail_url,
      category,
      rating,
      tags,
      is_new: (flags & NEW) !== 0,
      is_featured: (flags & FEATURED) !== 0,
      total_views,
      views_7d,
      released_at: new Date(released * 1000).toISOString(),
      slug,
      season_count,
      creator_id,
      creator: { name, is_verified: (flags & VERIFIED) !== 0 },
    };
  },
  text: (s) => s.title,
};

/** The search index items of one show (a view of its profile and its creator's name). */
export const showSearchItems = (
  show: ShowRecord,
  creator: CreatorLite | undefined,
): Record<string, unknown>[] =>
  searchItems('show', show.id, show.title, show.total_views, cardOf(showSearchFields(show, creator)));

/**
 * One page of shows matching a search query, filtered and sorted on the cards (relevance first,
 * then most popular; or the requested sort, applied to the best matches the bounded read found:
 * docs/search.md): a bounded number of index reads, no document read. `relation` says whether
 * `total` is exact.
 */
export const searchShows = async (
  q: SearchShowsQuery,
): Promise<{ shows: ShowSearchHit[]; total: number; relation: 'eq' | 'gte' }> => {
  const { hits, total, relation } = await searchIndex('show', q.q, {
    window: q.page * q.limit,
    cards,
    keep: (s) =>
      (q.category === 'all' || s.category === q.category) &&
      (q.rating === undefined || s.rating === q.rating) &&
      (q.is_new === undefined || s.is_new === q.is_new) &&
      (q.is_featured === undefined || s.is_featured === q.is_featured),
  });
  hits.sort((a, b) =>
    q.sort ? showOrder[q.sort](a.doc, b.doc) : b.score - a.score || showOrder.most_popular(a.doc, b.doc),
  );
  const page = hits.slice((q.page - 1) * q.limit, q.page * q.limit);
  return { shows: page.map((h) => searchShowItem(h.doc)), total, relation };
};
