import { GetCommand } from '../db/document.ts';
import type { EpisodeRecord, SeasonRecord, ShowRecord } from '../catalog/model.ts';
import { batchGet } from '../db/batch.ts';
import { db } from '../db/client.ts';
import { getByIndex, queryAll, queryFirst } from '../db/query.ts';
import { recordOf } from '../db/record.ts';
import { tableName } from '../db/table.ts';
import { type TransactOperation, writeIf } from '../db/transaction.ts';
import { updateOf, withCondition } from '../db/update.ts';
import { type EpisodePosition, showOrder } from './show-ranking.ts';

/**
 * Shows and episodes: key design and access patterns (see docs/data-model.md, "Shows").
 * - show profile: PK `SHOW#<id>`, SK `PROFILE` (the whole ShowRecord, and its `episode_tally`)
 *     GSI1PK `CREATOR_SHOWS#<creator id>`, GSI1SK `PROFILE#<id>`  (a creator's catalogue: its
 *     shows alone are one Query, `begins_with(GSI1SK, 'PROFILE#')`, without their episodes)
 *     GSI2PK `SHOW_SLUG#<slug>`,           GSI2SK `SHOW`               (slug lookup)
 * - episode:      PK `SHOW#<show id>`, SK `EP#<season 2 digits>#<episode 3 digits>` (the EpisodeRecord):
 *     a show with all its episodes is one Query of one item collection.
 *     GSI1PK `CREATOR_SHOWS#<creator id>`, GSI1SK `SHOW#<show id>#EP#<ss>#<eee>`: a creator's
 *     shows with all their episodes are one Query on GSI1.
 *     GSI3PK `EPISODE#<id>`, GSI3SK `EPISODE`                          (episode by id)
 * - search:       inverted index kind `show` over the title, with cards (shared/shows/show-search.ts).
 * Listings are ranked lists (shared/shows/show-ranking.ts, show-listings.ts); search pages are
 * shared/shows/show-search.ts.
 *
 * This module is the only writer of show and episode items: the studio's writes
 * (shared/studio/show-writes.ts) and the recordings' (shared/channels/recordings.ts) compose the
 * named writes and transaction operations below; callers never name a key or write an expression.
 */

/** A show or an episode as stored: the record and its `version` (grows on every change). */
export type Versioned<T> = T & { version: number };
/**
 * What a show's profile keeps of its episodes (docs/projections.md, "Show tallies"): how many it
 * has, and how many of them are free in each season (by season number; seasons without a free
 * episode left out). Exact: every episode write changes it in one transaction with the episode
 * (`showClockOperation`); the seed loader computes it, the rebuild repairs it.
 */
export interface EpisodeTally {
  episodes: number;
  free_by_season: Record<string, number>;
}
/** A show profile as stored (a profile written before tallies has none until the rebuild). */
export type StoredShow = Versioned<ShowRecord> & { episode_tally?: EpisodeTally };
/** An episode as stored. */
export type StoredEpisode = Versioned<EpisodeRecord>;

/** A show with its episodes (season, then episode order). */
export interface ShowWithEpisodes {
  show: ShowRecord;
  episodes: EpisodeRecord[];
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');
const showKey = (id: string) => ({ PK: `SHOW#${id}`, SK: 'PROFILE' });
const EPISODES = 'EP#';
const seasonSkPrefix = (season: number) => `${EPISODES}${pad(season, 2)}#`;
const episodeSk = (season: number, episode: number) => `${seasonSkPrefix(season)}${pad(episode, 3)}`;
const episodeKey = (showId: string, season: number, episode: number) => ({
  PK: `SHOW#${showId}`,
  SK: episodeSk(season, episode),
});
const creatorShowsPk = (creatorId: string) => `CREATOR_SHOWS#${creatorId}`;
const PROFILES = 'PROFILE#';

const byEpisodeOrder = (a: EpisodeRecord, b: EpisodeRecord) =>
  a.season - b.season || a.episode_number - b.episode_number;

/** A show profile as written new: with its episode tally (none of a legacy profile's is written). */
export type NewShow = StoredShow & { episode_tally: EpisodeTally };

/**
 * The stored item of one show's profile (a source item: the studio and the loader write it), with
 * the tally of the episodes it has.
 */
export const showItem = (show: ShowRecord & { episode_tally: EpisodeTally }): Record<string, unknown> => ({
  ...showKey(show.id),
  GSI1PK: creatorShowsPk(show.creator_id),
  GSI1SK: `${PROFILES}${show.id}`,
  GSI2PK: `SHOW_SLUG#${show.slug}`,
  GSI2SK: 'SHOW',
  entity: 'show',
  ...show,
});

type TalliedEpisode = Pick<EpisodeRecord, 'season' | 'access'>;

/** `tally` with `removed` taken off and `added` put on (an edit is both: the episode before and after). */
const tallyWith = (
  tally: EpisodeTally,
  change: { removed?: TalliedEpisode; added?: TalliedEpisode },
): EpisodeTally => {
  const free = { ...tally.free_by_season };
  const move = (episode: TalliedEpisode | undefined, by: number) => {
    if (episode?.access !== 'free') return;
    const count = (free[episode.season] ?? 0) + by;
    if (count > 0) free[episode.season] = count;
    else delete free[episode.season];
  };
  move(change.removed, -1);
  move(change.added, 1);
  const episodes = tally.episodes - (change.removed ? 1 : 0) + (change.added ? 1 : 0);
  return { episodes, free_by_season: free };
};

/** The tally of a show with no episodes. */
export const EMPTY_TALLY: EpisodeTally = { episodes: 0, free_by_season: {} };

/** The tally of a show with these episodes (the seed's and the rebuild's). */
export const tallyOf = (episodes: readonly TalliedEpisode[]): EpisodeTally =>
  episodes.reduce((tally, added) => tallyWith(tally, { added }), EMPTY_TALLY);

/** The stored item of one episode (a source item, in its show's item collection). */
export const episodeItem = (episode: EpisodeRecord): Record<string, unknown> => ({
  ...episodeKey(episode.show_id, episode.season, episode.episode_number),
  GSI1PK: creatorShowsPk(episode.creator_id),
  GSI1SK: `SHOW#${episode.show_id}#${episodeSk(episode.season, episode.episode_number)}`,
  GSI3PK: `EPISODE#${episode.id}`,
  GSI3SK: 'EPISODE',
  entity: 'episode',
  ...episode,
});

/** The key of an episode's item, from its show and position. */
export const episodeItemKey = episodeKey;

/** The key of a show's profile item. */
export const showItemKey = showKey;

/** Items the public may see: not those of a suspended creator (shared/studio/operator-writes.ts). */
const visible = (item: Record<string, unknown> | undefined) => item !== undefined && !item.creator_suspended;

const collect = (items: readonly Record<string, unknown>[]): ShowWithEpisodes[] => {
  const shows = new Map<string, ShowWithEpisodes>();
  const episodes: EpisodeRecord[] = [];
  for (const item of items.filter(visible)) {
    if (item.entity === 'show') {
      const show = recordOf<ShowRecord>(item);
      shows.set(show.id, { show, episodes: [] });
    } else if (item.entity === 'episode') episodes.push(recordOf<EpisodeRecord>(item));
  }
  for (const episode of episodes) shows.get(episode.show_id)?.episodes.push(episode);
  for (const entry of shows.values()) entry.episodes.sort(byEpisodeOrder);
  return [...shows.values()];
};

/** The id of the show with this slug, if any (one Query on GSI2). */
const showIdBySlug = async (slug: string): Promise<string | undefined> => {
  const item = await getByIndex('GSI2', { pk: `SHOW_SLUG#${slug.toLowerCase()}`, sk: 'SHOW' }, 'id');
  return typeof item?.id === 'string' ? item.id : undefined;
};

/**
 * A show with all its episodes, by id (`sh_…`: one Query of its item collection) or by slug
 * (the `/shows/<slug>` channel URL form: one Query on GSI2, then the same Query).
 */
export const getShowWithEpisodes = async (idOrSlug: string): Promise<ShowWithEpisodes | undefined> => {
  const id = idOrSlug.startsWith('sh_') ? idOrSlug : await showIdBySlug(idOrSlug);
  if (!id) return undefined;
  const items = await queryAll({
    KeyConditionExpression: 'PK = :pk',
    ExpressionAttributeValues: { ':pk': `SHOW#${id}` },
  });
  return collect(items)[0];
};

/**
 * Every show of a creator with all its episodes (one Query on GSI1, paged through; cost bounded
 * by that creator's catalogue). Shows are most popular first; episodes in season/episode order.
 */
export const listShowsByCreator = async (creatorId: string): Promise<ShowWithEpisodes[]> => {
  const items = await queryAll({
    IndexName: 'GSI1',
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': creatorShowsPk(creatorId) },
  });
  return collect(items).sort((a, b) => showOrder.most_popular(a.show, b.show));
};

/** A creator's show profiles as stored, suspended ones included (one Query on GSI1, no episodes). */
const showProfilesOfCreator = (creatorId: string) =>
  queryAll({
    IndexName: 'GSI1',
    KeyConditionExpression: 'GSI1PK = :pk AND begins_with(GSI1SK, :profile)',
    ExpressionAttributeValues: { ':pk': creatorShowsPk(creatorId), ':profile': PROFILES },
  });

/** A show and its episode tally (what the creator page needs of a show). */
export interface TalliedShow {
  show: ShowRecord;
  tally: EpisodeTally;
}

/**
 * Every show of a creator with its episode tally, without its episodes: one Query on GSI1 of the
 * profiles alone (the creator page's read). Hidden shows are left out, as `collect` leaves them.
 */
export const listTalliedShowsByCreator = async (creatorId: string): Promise<TalliedShow[]> =>
  (await showProfilesOfCreator(creatorId)).filter(visible).map((item) => {
    const { episode_tally, ...show } = recordOf<StoredShow>(item);
    return { show, tally: episode_tally ?? EMPTY_TALLY };
  });

/**
 * The ids of every show of a creator, hidden ones included (a suspended creator's): its deletion
 * and the projector's creator changes. By `entity` over the whole partition, not by the profiles'
 * `PROFILE#` sort key: a profile written before that key (`SHOW#<id>#PROFILE`, until the rebuild
 * repairs it) must still be found, or an account deletion would leave its shows behind.
 */
export const showIdsOfCreator = async (creatorId: string): Promise<string[]> =>
  (
    await queryAll({
      IndexName: 'GSI1',
      KeyConditionExpression: 'GSI1PK = :pk',
      FilterExpression: 'entity = :show_entity',
      ExpressionAttributeValues: { ':pk': creatorShowsPk(creatorId), ':show_entity': 'show' },
      ProjectionExpression: 'id',
    })
  ).map((item) => String(item.id));

/** Show profiles by id, in the order given (unknown ids left out). One BatchGetItem per 100. */
export const getShows = async (ids: readonly string[]): Promise<ShowRecord[]> =>
  (await batchGet(ids.map(showKey))).filter(visible).map((item) => recordOf<ShowRecord>(item));

/** One episode by its id (one Query on GSI3). */
export const getEpisode = async (id: string): Promise<EpisodeRecord | undefined> => {
  const item = await getByIndex('GSI3', { pk: `EPISODE#${id}`, sk: 'EPISODE' });
  return visible(item) ? recordOf<EpisodeRecord>(item as Record<string, unknown>) : undefined;
};

/** The first episode (lowest season, then episode number) of each show: one Limit-1 Query per show. */
export const getFirstEpisodes = async (showIds: readonly string[]): Promise<Map<string, EpisodeRecord>> => {
  const found = await Promise.all(
    showIds.map(async (id) => {
      const item = await queryFirst({
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :ep)',
        ExpressionAttributeValues: { ':pk': `SHOW#${id}`, ':ep': EPISODES },
      });
      return item && visible(item) ? ([id, recordOf<EpisodeRecord>(item)] as const) : undefined;
    }),
  );
  return new Map(found.filter((entry) => entry !== undefined));
};

/** Episodes by their position in their show, in the order given (unknown ones left out). One BatchGetItem per 100. */
export const getEpisodesAt = async (positions: readonly EpisodePosition[]): Promise<EpisodeRecord[]> => {
  const keys = positions.map((p) => episodeKey(p.showId, p.season, p.episode));
  const items = await batchGet(keys);
  return items.filter(visible).map((item) => recordOf<EpisodeRecord>(item));
};

/** One show profile by id (GetItem). */
export const getShow = async (id: string): Promise<ShowRecord | undefined> => {
  const result = await db.send(new GetCommand({ TableName: tableName(), Key: showKey(id) }));
  return result.Item && visible(result.Item) ? recordOf<ShowRecord>(result.Item) : undefined;
};

// ---- Named writes ------------------------------------------------------------------------------

/** The show or episode exists (never recreate an item deleted meanwhile). */
const EXISTS = { expression: 'attribute_exists(PK)' };

/**
 * Marks (or unmarks) every show and episode of a creator `creator_suspended` (`version` + 1), so
 * the projector takes their views down (or puts them back) and reads hide them. One Query on GSI1
 * (the creator's shows with their episodes), then one conditional UpdateItem per item: work
 * bounded by that creator's catalogue; an item deleted since the Query is left alone.
 */
export const setCatalogueSuspended = async (
  creatorId: string,
  options: { suspended: boolean },
): Promise<void> => {
  const items = await queryAll({
    IndexName: 'GSI1',
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': creatorShowsPk(creatorId) },
    ProjectionExpression: 'PK, SK',
  });
  const spec = options.suspended
    ? { set: { creator_suspended: true }, add: { version: 1 } }
    : { remove: ['creator_suspended'], add: { version: 1 } };
  for (const item of items)
    await writeIf({
      Update: { Key: { PK: item.PK, SK: item.SK }, ...withCondition(updateOf(spec), EXISTS) },
    });
};

/** The counters the projector moves on a show (views and their 7-day window). */
export type ShowCounters = Partial<Record<'total_views' | 'views_7d', number>>;

/** The transaction operation adding `counters` (and `version` 1) to a show, on condition it exists. */
export const addShowCountersOperation = (showId: string, counters: ShowCounters): TransactOperation => ({
  Update: {
    TableName: tableName(),
    Key: showKey(showId),
    ...withCondition(updateOf({ add: { ...counters, version: 1 } }), EXISTS),
  },
});

/** The transaction operation adding `views` (and `version` 1) to an episode, on condition it exists. */
export const addEpisodeViewsOperation = (
  at: { showId: string; season: number; episode: number },
  views: number,
): TransactOperation => ({
  Update: {
    TableName: tableName(),
    Key: episodeKey(at.showId, at.season, at.episode),
    ...withCondition(updateOf({ add: { views, version: 1 } }), EXISTS),
  },
});

/** A show is no longer new (`is_new` false, `version` + 1); false when it was not new (or is gone). */
export const markShowNotNew = async (showId: string): Promise<boolean> =>
  (
    await writeIf({
      Update: {
        Key: showKey(showId),
        ...withCondition(updateOf({ set: { is_new: false }, add: { version: 1 } }), {
          expression: 'is_new = :c0',
          values: { ':c0': true },
        }),
      },
    })
  ).written;

// ---- The studio's and the recordings' writes (shared/studio/show-writes.ts, shared/channels/recordings.ts)

/** Puts a new show (its `version` as given) unless one has its id; false when one has. */
export const putNewShow = async (show: NewShow): Promise<boolean> =>
  (await writeIf({ Put: { Item: showItem(show), ConditionExpression: 'attribute_not_exists(PK)' } })).written;

/**
 * Sets the given fields of creator `creatorId`'s show (`version` + 1; undefined fields are left
 * alone); the show after, or undefined when it does not exist or is another creator's.
 */
export const updateShowFields = async (
  creatorId: string,
  showId: string,
  fields: Partial<Omit<ShowRecord, 'id' | 'slug' | 'creator_id'>>,
): Promise<StoredShow | undefined> => {
  const outcome = await writeIf({
    Update: {
      Key: showKey(showId),
      ...withCondition(updateOf({ set: fields, add: { version: 1 } }), {
        expression: 'attribute_exists(PK) AND creator_id = :c0',
        values: { ':c0': creatorId },
      }),
      ReturnValues: 'ALL_NEW',
    },
  });
  return outcome.written ? recordOf<StoredShow>(outcome.attributes ?? {}) : undefined;
};

/** A show profile as stored now (suspended or not), read strongly consistent. */
export const getStoredShow = async (showId: string): Promise<StoredShow | undefined> => {
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName(), Key: showKey(showId), ConsistentRead: true }),
  );
  return Item ? recordOf<StoredShow>(Item) : undefined;
};

/** The episodes of a show as stored now (strongly consistent), in season and episode order. */
const storedEpisodes = async (showId: string, options: { season?: number; limit?: number } = {}) =>
  (
    await queryAll(
      {
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :ep)',
        ExpressionAttributeValues: {
          ':pk': showKey(showId).PK,
          ':ep': options.season === undefined ? EPISODES : seasonSkPrefix(options.season),
        },
        ConsistentRead: true,
        ...(options.limit ? { Limit: options.limit } : {}),
      },
      options.limit,
    )
  ).map((item) => recordOf<StoredEpisode>(item));

/**
 * Episode `episodeId` of show `showId` as stored now: the episode index (GSI3) names its item,
 * read strongly consistent; when the index misses (an episode created a moment ago may not be in
 * it yet, or it moved), a strongly consistent Query of the show's episodes. Undefined when the
 * episode is not one of this show's.
 */
export const getStoredEpisode = async (
  showId: string,
  episodeId: string,
): Promise<StoredEpisode | undefined> => {
  const indexed = await getByIndex('GSI3', { pk: `EPISODE#${episodeId}`, sk: 'EPISODE' });
  if (indexed?.show_id === showId) {
    const { Item } = await db.send(
      new GetCommand({
        TableName: tableName(),
        Key: episodeKey(showId, Number(indexed.season), Number(indexed.episode_number)),
        ConsistentRead: true,
      }),
    );
    if (Item?.id === episodeId) return recordOf<StoredEpisode>(Item);
  }
  return (await storedEpisodes(showId)).find((episode) => episode.id === episodeId);
};

/** Does the show have an episode in `season` other than number `exceptNumber`? One Limit-2 Query. */
export const seasonHasOtherEpisodes = async (
  showId: string,
  season: number,
  exceptNumber: number,
): Promise<boolean> =>
  (await storedEpisodes(showId, { season, limit: 2 })).some((e) => e.episode_number !== exceptNumber);

/** The position of the show's last episode (one Limit-1 Query, newest first, strongly consistent). */
export const lastEpisodePlace = async (
  showId: string,
): Promise<{ season: number; episodeNumber: number } | undefined> => {
  const last = await queryFirst({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :ep)',
    ExpressionAttributeValues: { ':pk': showKey(showId).PK, ':ep': EPISODES },
    ProjectionExpression: 'season, episode_number',
    ScanIndexForward: false,
    ConsistentRead: true,
  });
  return last ? { season: Number(last.season), episodeNumber: Number(last.episode_number) } : undefined;
};

/**
 * The show profile's part of an episode transaction (its episode clock): its `seasons`, its
 * `episode_tally` moved by `change` (the episode item deleted and/or the one put; an edit in
 * place is both: the episode before and after), and its `version` from the one read to the next (which the
 * episode written takes too), on condition that nothing changed it since. A profile without a
 * tally (written before tallies) keeps none: the rebuild computes it from its episodes.
 */
export const showClockOperation = (
  show: StoredShow,
  seasons: SeasonRecord[],
  change: { removed?: EpisodeRecord; added?: EpisodeRecord },
): TransactOperation => ({
  Update: {
    TableName: tableName(),
    Key: showKey(show.id),
    ...withCondition(
      updateOf({
        set: {
          seasons,
          episode_tally: show.episode_tally && tallyWith(show.episode_tally, change),
          version: show.version + 1,
        },
      }),
      {
        expression: 'creator_id = :c0 AND version = :c1',
        values: { ':c0': show.creator_id, ':c1': show.version },
      },
    ),
  },
});

/** The operation putting a new episode, on condition that its position is free. */
export const putEpisodeOperation = (episode: StoredEpisode): TransactOperation => ({
  Put: {
    TableName: tableName(),
    Item: episodeItem(episode),
    ConditionExpression: 'attribute_not_exists(PK)',
  },
});

/**
 * The operation writing `after`'s fields over episode `before` at the same position (its
 * `version` included), on condition that it is still `before` (its id and version).
 */
export const updateEpisodeOperation = (before: StoredEpisode, after: StoredEpisode): TransactOperation => ({
  Update: {
    TableName: tableName(),
    Key: episodeKey(before.show_id, before.season, before.episode_number),
    ...withCondition(
      updateOf({
        set: {
          title: after.title,
          description: after.description,
          duration_seconds: after.duration_seconds,
          access: after.access,
          price: after.price,
          currency: after.currency,
          air_date: after.air_date,
          stream_url: after.stream_url,
          version: after.version,
        },
      }),
      { expression: 'id = :c0 AND version = :c1', values: { ':c0': before.id, ':c1': before.version } },
    ),
  },
});

/** The operation deleting an episode, on condition that it is still the one read (id and version). */
export const deleteEpisodeOperation = (episode: StoredEpisode): TransactOperation => ({
  Delete: {
    TableName: tableName(),
    Key: episodeKey(episode.show_id, episode.season, episode.episode_number),
    ConditionExpression: 'id = :id AND version = :v',
    ExpressionAttributeValues: { ':id': episode.id, ':v': episode.version },
  },
});

/**
 * A show's item collection as stored now, items as stored: one strongly consistent Query, its
 * profile (if any) and its episodes in season and episode order. Read last key first, so the
 * profile (SK `PROFILE`, after every `EP#…`) is read before its episodes: a Query is no snapshot
 * (read committed; a collection over 1 MB is read page after page), and every episode write moves
 * the profile's `version` in its transaction, so a write conditional on the version read here never
 * rests on episodes older than that version (as a GetItem of the profile, then a Query of the
 * episodes, would have it).
 */
const showCollectionItems = async (showId: string) => {
  const items = await queryAll({
    KeyConditionExpression: 'PK = :pk',
    ExpressionAttributeValues: { ':pk': showKey(showId).PK },
    ConsistentRead: true,
    ScanIndexForward: false,
  });
  return {
    profile: items.find((item) => item.entity === 'show'),
    episodes: items.filter((item) => item.entity === 'episode').reverse(),
  };
};

/** A show's item collection as stored now (`showCollectionItems`): its profile, if any, and its episodes. */
export const getShowCollection = async (
  showId: string,
): Promise<{ profile: StoredShow | undefined; episodes: StoredEpisode[] }> => {
  const { profile, episodes } = await showCollectionItems(showId);
  return {
    profile: profile ? recordOf<StoredShow>(profile) : undefined,
    episodes: episodes.map((item) => recordOf<StoredEpisode>(item)),
  };
};

/**
 * What deleting creator `creatorId`'s show takes, from its item collection as stored now: an
 * operation deleting each episode, and the one deleting the profile on condition that it is
 * still at the version read (no episode was written meanwhile). Undefined when the show does not
 * exist or is another creator's.
 */
export const showDeletion = async (
  creatorId: string,
  showId: string,
): Promise<{ episodes: TransactOperation[]; profile: TransactOperation } | undefined> => {
  const { profile, episodes } = await getShowCollection(showId);
  if (!profile || profile.creator_id !== creatorId) return undefined;
  return {
    episodes: episodes.map((episode) => ({
      Delete: {
        TableName: tableName(),
        Key: episodeKey(showId, episode.season, episode.episode_number),
      },
    })),
    profile: {
      Delete: {
        TableName: tableName(),
        Key: showKey(showId),
        ConditionExpression: 'creator_id = :me AND version = :v',
        ExpressionAttributeValues: { ':me': creatorId, ':v': profile.version },
      },
    },
  };
};

// ---- The rebuild's repair of show profiles (shared/projection/rebuild.ts) -----------------------

const tallyText = (tally: EpisodeTally | undefined) =>
  tally
    ? JSON.stringify([
        tally.episodes,
        Object.entries(tally.free_by_season).sort(([a], [b]) => Number(a) - Number(b)),
      ])
    : '';

/** A show profile's fields derived from its key and episodes: its GSI1 sort key and episode tally. */
type ProfileFields = { GSI1SK: string; episode_tally: EpisodeTally };

const profileFields = (showId: string, episodes: readonly TalliedEpisode[]): ProfileFields => ({
  GSI1SK: `${PROFILES}${showId}`,
  episode_tally: tallyOf(episodes),
});

const differs = (item: Record<string, unknown>, want: ProfileFields) =>
  item.GSI1SK !== want.GSI1SK ||
  tallyText(item.episode_tally as EpisodeTally | undefined) !== tallyText(want.episode_tally);

/**
 * Does a show profile item lack (or have wrong) its GSI1 sort key or episode tally, given its
 * episodes (from the same scan)? For profiles written before tallies, or a defect.
 */
export const showProfileNeedsRepair = (
  item: Record<string, unknown>,
  episodes: readonly TalliedEpisode[],
): boolean => differs(item, profileFields(String(item.id), episodes));

/**
 * Sets a show profile's GSI1 sort key and episode tally from its episodes, read again strongly
 * consistent (a scan is no snapshot) in one Query of its item collection, profile first
 * (`showCollectionItems`), on condition that its `version` is still the one read (an episode write
 * meanwhile moved the tally itself, and then nothing is written). No `version` change: no view
 * depends on these fields. True when written.
 */
export const repairShowProfile = async (showId: string): Promise<boolean> => {
  const { profile, episodes } = await showCollectionItems(showId);
  if (!profile) return false;
  const want = profileFields(
    showId,
    episodes.map((item) => recordOf<StoredEpisode>(item)),
  );
  if (!differs(profile, want)) return false;
  return (
    await writeIf({
      Update: {
        Key: showKey(showId),
        ...withCondition(updateOf({ set: want }), {
          expression: 'version = :c0',
          values: { ':c0': profile.version },
        }),
      },
    })
  ).written;
};
