import * as z from 'zod/mini';
import { CATEGORY_IDS, RATING_IDS } from '../catalog/model.ts';
import { searchText } from '../creators/schemas.ts';
import { boolParam, enumParam, idParam, pageQuery } from '../http/validation.ts';
import { SHOW_SORTS } from './show-ranking.ts';

export const SHOW_SECTIONS = ['new_releases', 'featured', 'all'] as const;
export type ShowSection = (typeof SHOW_SECTIONS)[number];

const category = z._default(enumParam('category', ['all', ...CATEGORY_IDS]), 'all');
const rating = z.optional(enumParam('rating', RATING_IDS));

export const listShowsQuery = z.object({
  category,
  sort: z._default(enumParam('sort', SHOW_SORTS), 'most_popular'),
  section: z._default(enumParam('section', SHOW_SECTIONS), 'all'),
  is_new: z.optional(boolParam('is_new')),
  is_featured: z.optional(boolParam('is_featured')),
  rating,
  ...pageQuery(20),
});

/** `category` (default all) with `page`/`limit` (default 10). */
export const categoryPageQuery10 = z.object({ category, ...pageQuery(10) });

export const searchShowsQuery = z.object({
  q: searchText,
  category,
  sort: z.optional(enumParam('sort', SHOW_SORTS)),
  rating,
  is_new: z.optional(boolParam('is_new')),
  is_featured: z.optional(boolParam('is_featured')),
  ...pageQuery(20),
});

export const showPath = z.object({ id: idParam });

/** `page`/`limit` (default 10: each series carries every episode) for a creator's series. */
export const seriesQuery = z.object({ ...pageQuery(10) });
