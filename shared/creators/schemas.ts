import * as z from 'zod';
import { CATEGORY_IDS, TIER_IDS } from '../catalog/model.ts';
import { enumParam, idParam, pageQuery } from '../http/validation.ts';
import { CREATOR_SORTS } from './creator-repository.ts';

const category = enumParam('category', ['all', ...CATEGORY_IDS]).default('all');
const tier = enumParam('tier', ['all', ...TIER_IDS]).default('all');

export const listCreatorsQuery = z.object({
  category,
  tier,
  sort: enumParam('sort', CREATOR_SORTS).default('most_popular'),
  ...pageQuery(20),
});

export const pagedQuery10 = z.object({ ...pageQuery(10) });

export const searchCreatorsQuery = z.object({
  q: z
    .string({ error: 'q is required' })
    .trim()
    .min(1, { error: 'q is required' })
    .max(100, { error: 'q must be at most 100 characters' }),
  category,
  tier,
  ...pageQuery(20),
});

export const creatorPath = z.object({ id: idParam });
