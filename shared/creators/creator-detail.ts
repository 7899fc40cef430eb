import { listShowsByCreator } from '../shows/show-repository.ts';
import { creatorBlocks } from './creator-blocks.ts';
import { requireCreator } from './creator-repository.ts';
import { getRelationship } from './relationship-repository.ts';

/** `GET /creators/:id`: the detail blocks, with the caller's follow/subscription state when signed in. */
export const creatorDetail = async (idOrSlug: string, accountId: string | undefined, now: Date) => {
  const creator = await requireCreator(idOrSlug);
  const [shows, relationship] = await Promise.all([
    listShowsByCreator(creator.id),
    getRelationship(accountId, creator.id),
  ]);
  return creatorBlocks(creator, shows, relationship, now);
};
