import type { Catalog } from '../catalog/model.ts';
import { creatorItems, creatorListingItems } from '../creators/creator-repository.ts';
import { batchPut } from '../db/batch.ts';
import { defaultHomeLayout } from '../home/default-layout.ts';
import { homeLayoutItems } from '../home/home-repository.ts';
import { catalogShowItems, showListingItems } from '../shows/show-repository.ts';

/**
 * Writes a generated catalogue into the table through each entity's own item builders
 * (the repositories own the key design; this only collects and batches).
 */
export const loadCatalog = async (catalog: Catalog): Promise<{ items: number }> => {
  const items: Record<string, unknown>[] = [
    ...catalog.creators.flatMap(creatorItems),
    ...creatorListingItems(catalog.creators),
    ...catalogShowItems(catalog.shows, catalog.episodes),
    ...showListingItems(catalog.shows, catalog.episodes),
    ...homeLayoutItems(defaultHomeLayout(new Date())),
  ];
  await batchPut(items);
  return { items: items.length };
};
