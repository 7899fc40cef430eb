import type { CreatorRecord, EpisodeRecord, ShowRecord } from '../catalog/model.ts';
import { listOfItem, rankTotalKey } from '../catalog/ranked-list.ts';
import { creatorKey } from '../creators/creator-repository.ts';
import type { PrimaryKey } from '../db/key.ts';
import { showItemKey } from '../shows/show-repository.ts';
import { viewSetItem } from './view-set.ts';
import { episodeViewSource } from './view-set-repository.ts';
import { creatorViews, episodeViews, type Item, showViews } from './views.ts';

/** A source record with the version it is stored at. */
export type Versioned<T> = T & { version?: number };

/**
 * Every view item of a whole catalogue at once, from the same view functions the projector
 * applies one change at a time: the views, one view set per source item and the list totals.
 * The seed loader writes these into an empty table; the rebuild compares them with the table.
 */
export const catalogViewItems = (sources: {
  creators: readonly Versioned<CreatorRecord>[];
  shows: readonly Versioned<ShowRecord>[];
  episodes: readonly Versioned<EpisodeRecord>[];
}): Item[] => {
  const items: Item[] = [];
  const add = (source: PrimaryKey, version: number | undefined, views: Item[]) => {
    if (views.length === 0) return;
    items.push(...views, viewSetItem(source, version ?? 0, views));
  };
  for (const creator of sources.creators) add(creatorKey(creator.id), creator.version, creatorViews(creator));
  const creatorById = new Map(sources.creators.map((c) => [c.id, c]));
  const showById = new Map(sources.shows.map((s) => [s.id, s]));
  for (const show of sources.shows)
    add(showItemKey(show.id), show.version, showViews(show, creatorById.get(show.creator_id)));
  for (const episode of sources.episodes) {
    const show = showById.get(episode.show_id);
    if (!show) continue;
    add(episodeViewSource(episode.id), episode.version, episodeViews(episode, show.category));
  }
  const totals = new Map<string, number>();
  for (const item of items) {
    const list = listOfItem(item);
    if (list !== undefined) totals.set(list, (totals.get(list) ?? 0) + 1);
  }
  for (const [list, total] of totals) items.push({ ...rankTotalKey(list), total });
  return items;
};
