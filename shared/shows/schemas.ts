import * as z from 'zod';
import { CATEGORY_IDS, RATING_IDS } from '../catalog/model.ts';
import { boolParam, enumParam, idParam, pageQuery } from '../http/validation.ts';
import { SHOW_SORTS } from './show-repository.ts';

export const SHOW_SECTIONS = ['new_releases', 'featured', 'all'] as const;
export type ShowSection = (typeof SHOW_SECTIONS)[number];

const category = enumParam('category', ['all', ...CATEGORY_IDS]).default('all');
const rating = enumParam('rating', RATING_IDS).optional();

export const listShowsQuery = z.object({
  category,
  sort: enumParam('sort', SHOW_SORTS).default('most_popular'),
  section: enumParam('section', SHOW_SECTIONS).default('all'),
  is_new: boolParam('is_new').optional(),
  is_featured: boolParam('is_featured').optional(),
  rating,
  ...pageQuery(20),
});

/** `category` (default all) with `page`/`limit` (default 10). */
export const categoryPageQuery10 = z.object({ category, ...pageQuery(10) });

export const searchShowsQuery = z.object({
  q: z
    .string({ error: 'q is required' })
    .trim()
    .min(1, { error: 'q is required' })
    .max(100, { error: 'q must be at most 100 characters' }),
  category,
  sort: enumParam('sort', SHOW_SORTS).optional(),
  rating,
  is_new: boolParam('is_new').optional(),
  is_featured: boolParam('is_featured').optional(),
  ...pageQuery(20),
});

export const showPath = z.object({ id: idParam });

/** `page`/`limit` (default 10: each series carries every episode) for a creator's series. */
export const seriesQuery = z.object({ ...pageQuery(10) });
