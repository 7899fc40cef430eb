import type { CategoryId, CreatorRecord, EpisodeRecord, ShowRecord } from '../catalog/model.ts';
import { rankEntryItem } from '../catalog/ranked-list.ts';
import { creatorListEntries } from '../creators/creator-ranking.ts';
import { creatorSearchItems } from '../creators/creator-repository.ts';
import { episodeListEntries, showListEntries } from '../shows/show-ranking.ts';
import { showSearchItems } from '../shows/show-repository.ts';

/**
 * The views of each kind of source item: the items derived from it alone (its ranked-list
 * entries and search index items). Pure functions; the projector (incremental), the seed loader
 * and the rebuild (bulk) all call these, so a view has one definition (docs/projections.md).
 */
export type Item = Record<string, unknown>;

/** A public creator's views; none while suspended. */
export const creatorViews = (creator: CreatorRecord): Item[] =>
  creator.suspended_at
    ? []
    : [...creatorSearchItems(creator), ...creatorListEntries(creator).map(rankEntryItem)];

/** A show's views; none while its creator is suspended. */
export const showViews = (show: ShowRecord): Item[] =>
  show.creator_suspended ? [] : [...showSearchItems(show), ...showListEntries(show).map(rankEntryItem)];

/**
 * The source an episode's view set is keyed by: its id, not its item's key. The item's key is its
 * position (`EP#<season>#<episode>`), and moving an episode deletes one item and puts another in
 * one transaction: keyed by position, the two view sets would claim the same view items, and the
 * old item's deletion, projected after the new item's put, would delete the moved episode's views.
 */
export const episodeViewSource = (episodeId: string) => ({ PK: 'EPISODE', SK: episodeId });

/** An episode's views (its lists depend on its show's category); none while its creator is suspended. */
export const episodeViews = (episode: EpisodeRecord, showCategory: CategoryId): Item[] =>
  episode.creator_suspended ? [] : episodeListEntries(episode, showCategory).map(rankEntryItem);
