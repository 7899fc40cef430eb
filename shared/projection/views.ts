import type { CategoryId, CreatorRecord, EpisodeRecord, ShowRecord } from '../catalog/model.ts';
import { rankEntryItem } from '../catalog/ranked-list.ts';
import { creatorListEntries } from '../creators/creator-ranking.ts';
import { creatorSearchItems } from '../creators/creator-search.ts';
import { episodeListEntries, showListEntries } from '../shows/show-ranking.ts';
import { showSearchItems } from '../shows/show-search.ts';
import type { CreatorLite } from '../shows/show-views.ts';

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

/** A show's views (its search cards carry its creator's name); none while its creator is suspended. */
export const showViews = (show: ShowRecord, creator: CreatorLite | undefined): Item[] =>
  show.creator_suspended
    ? []
    : [...showSearchItems(show, creator), ...showListEntries(show).map(rankEntryItem)];

/** Does a creator change alter its shows' views (the creator fields their search cards carry)? */
export const changesShowViews = (
  before: Partial<CreatorLite> | undefined,
  after: Partial<CreatorLite> | undefined,
): boolean => before?.name !== after?.name || before?.is_verified !== after?.is_verified;

/** An episode's views (its lists depend on its show's category); none while its creator is suspended. */
export const episodeViews = (episode: EpisodeRecord, showCategory: CategoryId): Item[] =>
  episode.creator_suspended ? [] : episodeListEntries(episode, showCategory).map(rankEntryItem);
