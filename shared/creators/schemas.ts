import * as z from 'zod/mini';
import { CATEGORY_IDS, TIER_IDS } from '../catalog/model.ts';
import { enumParam, idParam, pageQuery } from '../http/validation.ts';
import { CREATOR_SORTS } from './creator-ranking.ts';

const category = z._default(enumParam('category', ['all', ...CATEGORY_IDS]), 'all');
const tier = z._default(enumParam('tier', ['all', ...TIER_IDS]), 'all');

export const listCreatorsQuery = z.object({
  category,
  tier,
  sort: z._default(enumParam('sort', CREATOR_SORTS), 'most_popular'),
  ...pageQuery(20),
});

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
