import * as z from 'zod/mini';
import { CATEGORY_IDS, type CreatorRecord, TIER_IDS } from '../catalog/model.ts';
import { type CardReader, searchIndex, searchItems } from '../search/search-index.ts';
import { type CreatorSearchFields, searchCreatorSummary } from './creator-views.ts';
import type { SearchCreatorSummary, SearchCreatorsQuery } from './schemas.ts';
import { compareText } from '../compare.ts';

/**
 * Creator search (docs/search.md): the index items of a creator, carrying its card, and one page
 * of creators matching a query, served from those items alone.
 */

/**
 * A creator's card: its search fields as a tuple, in this order (no attribute names: 21 index
 * items of a read fit one 4 KB read unit). Changing the order or the fields is a view change:
 * deployed tables need one `rebuild-views` run (docs/projections.md).
 */
type CreatorCard = [
  name: string,
  initials: string,
  avatarColor: string,
  avatarUrl: string | null,
  tier: CreatorRecord['tier'],
  category: CreatorRecord['category'],
  subscribers: number,
  isLive: boolean,
  isVerified: boolean,
  slug: string,
];

const cardOf = (c: CreatorRecord): CreatorCard => [
  c.name,
  c.initials,
  c.avatar_color,
  c.avatar_url,
  c.tier,
  c.category,
  c.subscribers,
  c.live !== null,
  c.is_verified,
  c.slug,
];

/** The text a creator is found by: its name and handle. */
const searchText = (c: Pick<CreatorRecord, 'name' | 'slug'>) => `${c.name} ${c.slug.replace(/_/g, ' ')}`;

/** A stored card read back: CreatorCard's layout, or not a card (built on the first search). */
let cardSchema: z.ZodMiniType<CreatorCard> | undefined;
const creatorCard = () =>
  (cardSchema ??= z.tuple([
    z.string(),
    z.string(),
    z.string(),
    z.nullable(z.string()),
    z.enum(TIER_IDS),
    z.enum(CATEGORY_IDS),
    z.number(),
    z.boolean(),
    z.boolean(),
    z.string(),
  ]));

const cards: CardReader<CreatorSearchFields> = {
  read: (id, stored) => {
    const card = creatorCard().safeParse(stored);
    if (!card.success) return undefined;
    const [
      name,
      initials,
      avatar_color,
      avatar_url,
      tier,
      category,
      subscribers,
      is_live,
      is_verified,
      slug,
    ] = card.data;
    return {
      id,
      name,
      initials,
      avatar_color,
      avatar_url,
      tier,
      category,
      subscribers,
      is_live,
      is_verified,
      slug,
    };
  },
  text: searchText,
};

/** The search index items of one creator (a view of its profile). */
export const creatorSearchItems = (creator: CreatorRecord): Record<string, unknown>[] =>
  searchItems('creator', creator.id, searchText(creator), creator.subscribers, cardOf(creator));

/**
 * One page of creators matching a search query, best match first (then most subscribers),
 * filtered by category and tier: a bounded number of index reads (docs/search.md), no document
 * read. `relation` says whether `total` is exact.
 */
export const searchCreators = async (
  q: SearchCreatorsQuery,
): Promise<{ creators: SearchCreatorSummary[]; total: number; relation: 'eq' | 'gte' }> => {
  const { hits, total, relation } = await searchIndex('creator', q.q, {
    window: q.page * q.limit,
    cards,
    keep: (c) =>
      (q.category === 'all' || c.category === q.category) && (q.tier === 'all' || c.tier === q.tier),
  });
  hits.sort((a, b) => b.score - a.score || b.doc.subscribers - a.doc.subscribers || compareText(a.id, b.id));
  const page = hits.slice((q.page - 1) * q.limit, q.page * q.limit);
  return { creators: page.map((h) => searchCreatorSummary(h.doc, h.doc.is_live)), total, relation };
};
