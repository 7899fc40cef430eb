import * as z from 'zod/mini';
import { CATEGORY_IDS, TIER_IDS } from '../catalog/model.ts';
import { described, named } from '../http/schema-meta.ts';
import { enumParam, idParam, pageQuery } from '../http/validation.ts';
import { Pagination } from '../pagination.ts';
import { CREATOR_SORTS } from './creator-ranking.ts';

const category = z._default(enumParam('category', ['all', ...CATEGORY_IDS]), 'all');
const tier = z._default(enumParam('tier', ['all', ...TIER_IDS]), 'all');

export const listCreatorsQuery = z.object({
  category: described(category, 'Only creators of this category', 'comedy'),
  tier: described(tier, 'Only creators of this tier', 'gold'),
  sort: described(
    z._default(enumParam('sort', CREATOR_SORTS), 'most_popular'),
    'Order: most subscribers, most gained in 7 days, newest, most watched now, or by name',
    'trending',
  ),
  ...pageQuery(20),
});
export type ListCreatorsQuery = z.infer<typeof listCreatorsQuery>;

export const pagedQuery10 = z.object({ ...pageQuery(10) });

/** `q` for the search endpoints: trimmed, 1-100 characters (400 without it). */
export const searchText = z
  .string({ error: 'q is required' })
  .check(
    z.trim(),
    z.minLength(1, { error: 'q is required' }),
    z.maxLength(100, { error: 'q must be at most 100 characters' }),
  );

export const searchCreatorsQuery = z.object({
  q: searchText,
  category,
  tier,
  ...pageQuery(20),
});

export const creatorPath = z.object({ id: idParam });

// ---- Responses -------------------------------------------------------------------------------

const count = (description: string, example: number) =>
  described(z.number().check(z.int()), description, example);
const formatted = (of: string, example: string) =>
  described(z.string(), `${of}, abbreviated for display (1.2K, 3.4M)`, example);

export const Tier = named(
  'Tier',
  z.object({
    id: described(z.enum(TIER_IDS), 'Tier id', 'gold'),
    label: described(z.string(), 'Display name', 'Gold'),
  }),
  'A creator tier (spec 2.3), highest first in lists',
);
export type Tier = z.infer<typeof Tier>;

export const CreatorSummary = named(
  'CreatorSummary',
  z.object({
    id: described(z.string(), 'Creator id', 'cr_0001'),
    name: described(z.string(), 'Display name', 'Maya Lopez'),
    initials: described(z.string(), 'Initials for an avatar placeholder', 'ML'),
    avatar_color: described(z.string(), 'Avatar placeholder colour, `#RRGGBB`', '#8B5CF6'),
    avatar_url: described(z.nullable(z.string()), 'Avatar image URL; null when none was uploaded', null),
    tier: described(z.enum(TIER_IDS), 'Tier id', 'gold'),
    category: described(z.enum(CATEGORY_IDS), 'Category id', 'comedy'),
    subscribers: count('Subscribers', 1240000),
    subscribers_formatted: formatted('Subscribers', '1.2M'),
    is_live: described(z.boolean(), 'Live on their channel now', true),
    is_verified: described(z.boolean(), 'Verified creator', true),
    is_hot: described(z.boolean(), 'Editorially marked as hot', false),
    watching_now: count('Viewers on the live stream now (0 when offline)', 1520),
    watching_now_formatted: formatted('Viewers now', '1.5K'),
    channel_url: described(z.string(), "Path of the creator's page", '/creators/maya_lopez'),
  }),
  'A creator as lists show them (spec 2.2)',
);
export type CreatorSummary = z.infer<typeof CreatorSummary>;

export const CreatorList = z.object({ creators: z.array(CreatorSummary) });

export const CreatorListMeta = z.object({
  ...Pagination.shape,
  filters_applied: described(
    z.object({ category: z.string(), tier: z.string(), sort: z.string() }),
    'The filters and order this page was made with (defaults filled in)',
  ),
});
