import type { Catalog, EpisodeRecord, ShowRecord } from '../catalog/model.ts';
import { creatorListingItems } from '../creators/creator-ranking.ts';
import { creatorItems } from '../creators/creator-repository.ts';
import { followItem, subscriptionItem } from '../creators/relationship-repository.ts';
import { batchPut } from '../db/batch.ts';
import { accountItems } from '../identity/account-repository.ts';
import { programItems } from '../epg/program-repository.ts';
import { defaultHomeLayout } from '../home/default-layout.ts';
import { homeLayoutItems } from '../home/home-repository.ts';
import { showListingItems } from '../shows/show-ranking.ts';
import { showItems } from '../shows/show-repository.ts';

/** Every show's items, each with its own episodes. */
const catalogShowItems = (
  shows: readonly ShowRecord[],
  episodes: readonly EpisodeRecord[],
): Record<string, unknown>[] => {
  const byShow = new Map<string, EpisodeRecord[]>();
  for (const e of episodes) {
    const list = byShow.get(e.show_id);
    if (list) list.push(e);
    else byShow.set(e.show_id, [e]);
  }
  return shows.flatMap((show) => showItems(show, byShow.get(show.id) ?? []));
};

/**
 * The items of a generated catalogue, built by each entity's own item builders (the repositories
 * own the key design; this only collects).
 */
const catalogItems = (catalog: Catalog, now: Date): Record<string, unknown>[] => {
  const DAY = 86_400_000;
  const items: Record<string, unknown>[] = [
    ...catalog.creators.flatMap(creatorItems),
    ...creatorListingItems(catalog.creators),
    ...catalogShowItems(catalog.shows, catalog.episodes),
    ...showListingItems(catalog.shows, catalog.episodes),
    ...homeLayoutItems(defaultHomeLayout(now)),
    ...catalog.programs.flatMap(programItems),
    ...catalog.accounts.flatMap((account) => [
      ...account.following.map((creatorId) => followItem(account.account_id, creatorId, now.toISOString())),
      ...account.subscriptions.map((creatorId) =>
        subscriptionItem({
          account_id: account.account_id,
          creator_id: creatorId,
          status: 'active',
          subscribed_at: new Date(now.getTime() - 30 * DAY).toISOString(),
          renewal_date: new Date(now.getTime() + 30 * DAY).toISOString(),
        }),
      ),
    ]),
  ];
  const accounts = catalog.accounts.map((account) =>
    accountItems({
      account_id: account.account_id,
      email: account.email,
      creator_name: account.creator_name,
      handle: account.handle,
      password_hash: account.password_hash,
      user_status: 'active',
      completed_steps: ['category', 'social'],
      created_at: now.toISOString(),
    }),
  );
  return [...items, ...accounts.flat()];
};

/** Writes a generated catalogue into the table (batched puts). */
export const loadCatalog = async (catalog: Catalog, now: Date): Promise<{ items: number }> => {
  const items = catalogItems(catalog, now);
  await batchPut(items);
  return { items: items.length };
};
