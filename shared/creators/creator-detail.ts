import type { CreatorRecord } from '../catalog/model.ts';
import { NotFoundError } from '../http/errors.ts';
import { listShowsByCreator } from '../shows/show-repository.ts';
import { creatorBlocks } from './creator-blocks.ts';
import { getCreator } from './creator-repository.ts';
import { getRelationship } from './relationship-repository.ts';

/** The creator or a 404 (spec 7: creator not found). */
export const requireCreator = async (idOrSlug: string): Promise<CreatorRecord> => {
  const creator = await getCreator(idOrSlug);
  if (!creator) throw new NotFoundError('Creator not found');
  return creator;
};

/** `GET /creators/:id`: the detail blocks, with the caller's follow/subscription state when signed in. */
export const creatorDetail = async (idOrSlug: string, accountId: string | undefined, now: Date) => {
  const creator = await requireCreator(idOrSlug);
  const [shows, relationship] = await Promise.all([
    listShowsByCreator(creator.id),
    getRelationship(accountId, creator.id),
  ]);
  return creatorBlocks(creator, shows, relationship, now);
};
