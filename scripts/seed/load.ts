import type { Catalog, EpisodeRecord } from '../../shared/catalog/model.ts';
import { creatorFromAccount } from '../../shared/identity/creator-from-account.ts';
import { creatorItem } from '../../shared/creators/creator-repository.ts';
import { followItem } from '../../shared/creators/relationship-repository.ts';
import { entitlementItem } from '../../shared/entitlements/entitlement-repository.ts';
import { batchPut } from '../../shared/db/batch.ts';
import { accountItems } from '../../shared/identity/account-repository.ts';
import { programItems } from '../../shared/epg/program-repository.ts';
import { defaultHomeLayout } from '../../shared/home/default-layout.ts';
import { homeLayoutItems } from '../../shared/home/home-repository.ts';
import { catalogViewItems } from '../../shared/projection/bulk.ts';
import { relationshipMarkerItem } from '../../shared/projection/counted-marker-repository.ts';
import { channelCounterItem } from '../../shared/creators/channel-number-repository.ts';
import { episodeItem, showItem, tallyOf } from '../../shared/shows/show-repository.ts';

/**
 * The items of a generated catalogue: its source items (creators, shows, episodes, programs,
 * accounts and relationships, built by each entity's own item builders, at version 1) and the
 * views the projections derive from them (shared/projection/bulk.ts: the same view functions the
 * projector applies to each change), so a seeded table is what replaying its writes would build.
 */
export const catalogItems = (catalog: Catalog, now: Date): Record<string, unknown>[] => {
  const DAY = 86_400_000;
  // Demo accounts with a category are creators, as onboarding would have made them
  // (shared/projection/onboarding.ts), numbered after the catalogue's channels.
  const lastChannel = Math.max(0, ...catalog.creators.map((c) => c.channel.channel_number));
  const creators = [
    ...catalog.creators,
    ...catalog.accounts
      .filter((a) => a.category !== undefined)
      .map((a, i) => creatorFromAccount({ ...a, category: a.category! }, lastChannel + 1 + i, now)),
  ];
  const episodesByShow = new Map<string, EpisodeRecord[]>();
  for (const e of catalog.episodes)
    episodesByShow.set(e.show_id, [...(episodesByShow.get(e.show_id) ?? []), e]);
  const channelNumbers = new Map(creators.map((c) => [c.channel.channel_id, c.channel.channel_number]));
  const items: Record<string, unknown>[] = [
    ...creators.map((c) => ({ ...creatorItem(c), version: 1 })),
    ...catalog.shows.map((s) => ({
      ...showItem({ ...s, episode_tally: tallyOf(episodesByShow.get(s.id) ?? []) }),
      version: 1,
    })),
    ...catalog.episodes.map((e) => ({ ...episodeItem(e), version: 1 })),
    ...catalogViewItems({
      creators: creators.map((c) => ({ ...c, version: 1 })),
      shows: catalog.shows.map((s) => ({ ...s, version: 1 })),
      episodes: catalog.episodes.map((e) => ({ ...e, version: 1 })),
    }),
    channelCounterItem(Math.max(0, ...creators.map((c) => c.channel.channel_number))),
    ...homeLayoutItems(defaultHomeLayout(now)),
    ...catalog.programs.flatMap((p) => programItems(p, channelNumbers.get(p.channel_id)!)),
    ...catalog.accounts.flatMap((account) => [
      ...account.following.flatMap((creatorId) => [
        followItem(account.account_id, creatorId, now.toISOString()),
        relationshipMarkerItem('follower', account.account_id, creatorId),
      ]),
      ...account.subscriptions.map((creatorId) =>
        relationshipMarkerItem('subscriber', account.account_id, creatorId),
      ),
      ...account.subscriptions.map((creatorId) =>
        // A demo subscription is an entitlement as a paid one is (source `stripe`, no provider
        // ids: the local Stripe stand-in has no subscription behind it, so no event changes it).
        entitlementItem({
          account_id: account.account_id,
          kind: 'subscription',
          creator_id: creatorId,
          content_id: null,
          source: 'stripe',
          status: 'active',
          valid_until: new Date(now.getTime() + 30 * DAY).toISOString(),
          grace_until: null,
          cancel_at_period_end: false,
          started_at: new Date(now.getTime() - 30 * DAY).toISOString(),
          observed_at: now.getTime(),
          provider: {},
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
      ...(account.category ? { category: account.category } : {}),
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
