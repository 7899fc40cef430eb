import { getEpisode } from '../shows/show-repository.ts';
import { type StoreTarget, targetOfProduct } from './catalogue.ts';

/**
 * Where every store's state lands (both stores, every route and the reconcile): the product id
 * resolved through the catalogue (a pay-per-view item to its creator), then `applyEntitlement`,
 * which keeps the store object's state beside any other source's and shows the one that grants
 * furthest (a viewer who subscribed on the web and again in the app keeps the access that lasts,
 * whichever ends first).
 */
export interface StoreItem {
  creatorId: string;
  contentId?: string;
}

/** What a store product id sells, resolved to a creator (undefined: not ours, or the item is gone). */
export const itemOfProduct = async (prefix: string, productId: string): Promise<StoreItem | undefined> => {
  const target: StoreTarget | undefined = targetOfProduct(prefix, productId);
  if (!target) return undefined;
  if (target.kind === 'subscription') return { creatorId: target.creatorId };
  const episode = await getEpisode(target.contentId);
  return episode ? { creatorId: episode.creator_id, contentId: episode.id } : undefined;
};
