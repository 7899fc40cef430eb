import type { AttributeValue as LambdaAttributeValue, DynamoDBRecord } from 'aws-lambda';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { exportPaymentFacts } from '../analytics/payment-facts.ts';
import { exportTitles } from '../analytics/title-dimension.ts';
import { GetCommand } from '../db/document.ts';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { CategoryId, CreatorRecord, EpisodeRecord, ShowRecord } from '../catalog/model.ts';
import { db } from '../db/client.ts';
import { recordOf } from '../db/record.ts';
import { tableName } from '../db/table.ts';
import type { Account } from '../identity/account-repository.ts';
import { creatorKey, getCreatorCard } from '../creators/creator-repository.ts';
import { keyString } from '../db/key.ts';
import { getEpisode, getShowCollection, showIdsOfCreator, showItemKey } from '../shows/show-repository.ts';
import type { CreatorLite } from '../shows/show-views.ts';
import { countFollow, countSubscription, countView } from './counters.ts';
import { becameCreator, createCreatorFor } from './onboarding.ts';
import { applyViews } from './view-set.ts';
import { episodeViewSource } from './view-set-repository.ts';
import { changesShowViews, creatorViews, episodeViews, type Item, showViews } from './views.ts';

/**
 * The projector: turns one change of the table (a stream record with both images) into the
 * changes of every view derived from it (docs/projections.md). Source items are recognised by
 * their `entity`; every other item (views, view sets, counters, sessions) is not projected, and
 * on AWS the event source mapping's filter keeps those records from invoking the projector.
 */

/** The `entity` values whose changes the projector handles (also the mapping's filter). */
export const PROJECTED_ENTITIES = [
  'creator',
  'show',
  'episode',
  'account',
  'entitlement',
  'follow',
  'playback',
] as const;

const imageOf = (image: Record<string, LambdaAttributeValue> | undefined): Item | undefined =>
  image ? unmarshall(image as Record<string, AttributeValue>) : undefined;

const versionOf = (item: Item | undefined) => Number(item?.version ?? 0);

/** The category of a show (its lists decide an episode's), or undefined once it is gone. */
const showCategory = async (showId: string): Promise<CategoryId | undefined> => {
  const result = await db.send(
    new GetCommand({ TableName: tableName(), Key: showItemKey(showId), ProjectionExpression: 'category' }),
  );
  return result.Item?.category as CategoryId | undefined;
};

/** What a show's views carry of its creator (its search cards), read at projection time. */
const showCreator = async (creatorId: string): Promise<CreatorLite | undefined> =>
  (await getCreatorCard(creatorId)) as CreatorLite | undefined;

/** A show as stored now (consistent: the index that found it may lag its latest change). */
const storedShow = async (showId: string): Promise<Item | undefined> =>
  (await db.send(new GetCommand({ TableName: tableName(), Key: showItemKey(showId), ConsistentRead: true })))
    .Item;

const projectShow = async (item: Item, version: number, creator: CreatorLite | undefined) =>
  applyViews(showItemKey(String(item.id)), version, showViews(recordOf<ShowRecord>(item), creator));

const projectEpisode = async (item: Item, version: number, category: CategoryId | undefined) =>
  applyViews(
    episodeViewSource(String(item.id)),
    version,
    category ? episodeViews(recordOf<EpisodeRecord>(item), category) : [],
  );

/** Handles one stream record; throws when it must be retried. */
export const projectRecord = async (record: DynamoDBRecord, now: Date): Promise<void> => {
  const before = imageOf(record.dynamodb?.OldImage);
  const after = imageOf(record.dynamodb?.NewImage);
  const image = after ?? before;
  if (!image) return;
  // A deletion is the source's last version: half past the version it had, so it sorts after every
  // earlier record of the source and before any later write of it (a moved episode's new item, put
  // in the deletion's transaction with a version at least one above the old item's).
  const version = after ? versionOf(after) : versionOf(before) + 0.5;
  // The analytics title dimension follows catalogue changes (a side effect that never throws).
  await exportTitles(before, after, now);
  // Payment facts follow entitlement changes (throws so the stream retries: ids repeat, queries dedupe).
  await exportPaymentFacts(record, now);
  switch (image.entity) {
    case 'creator': {
      await applyViews(
        creatorKey(String(image.id)),
        version,
        after ? creatorViews(recordOf<CreatorRecord>(after)) : [],
      );
      // A show's search cards carry its creator's name: a rename re-projects the creator's shows
      // (found on GSI1, each read again consistently: the index may lag a show's latest change).
      if (before && after && changesShowViews(before, after)) {
        for (const showId of await showIdsOfCreator(String(after.id))) {
          const show = await storedShow(showId);
          if (show) await projectShow(show, versionOf(show), after as CreatorLite);
        }
      }
      return;
    }
    case 'show': {
      if (after) await projectShow(after, version, await showCreator(String(after.creator_id)));
      else await applyViews(showItemKey(String(image.id)), version, []);
      // An episode's lists follow its show's category: a moved (or deleted) show moves them.
      if (before?.category !== after?.category) {
        // Read consistently, hidden ones included (the show's item collection as stored).
        const { episodes } = await getShowCollection(String(image.id));
        for (const episode of episodes)
          await projectEpisode({ ...episode }, episode.version, after?.category as CategoryId | undefined);
      }
      return;
    }
    case 'episode':
      await projectEpisode(image, version, after ? await showCategory(String(after.show_id)) : undefined);
      return;
    case 'account':
      if (becameCreator(before as Account | undefined, after as Account | undefined))
        await createCreatorFor(recordOf<Account>(after!), now);
      return;
    case 'entitlement':
      if ((after ?? before)?.kind === 'subscription') await countSubscription(before, after, now);
      return;
    case 'follow':
      if ((before === undefined) !== (after === undefined)) await countFollow(before, after);
      return;
    case 'playback':
      await countView(before, after, getEpisode, now);
      return;
    default:
  }
};

/**
 * Records whose work a later record of the same batch makes redundant: a view is rebuilt from
 * the newest image, so of several changes to one creator, show or episode in a batch only the last
 * needs projecting (a burst of subscribes to one creator is one re-ranking, not twenty). A show
 * change that moves its category is always projected (its episodes follow it), and so is a
 * creator change that renames it (its shows' search cards follow it).
 */
export const supersededRecords = (records: readonly DynamoDBRecord[]): Set<number> => {
  const last = new Map<string, number>();
  const skip = new Set<number>();
  records.forEach((record, i) => {
    const before = imageOf(record.dynamodb?.OldImage);
    const after = imageOf(record.dynamodb?.NewImage);
    const image = after ?? before;
    if (!image || !['creator', 'show', 'episode'].includes(String(image.entity))) return;
    const key = keyString(image);
    const previous = last.get(key);
    if (previous !== undefined) skip.add(previous);
    last.set(key, i);
    if (image.entity === 'show' && before?.category !== after?.category) last.delete(key);
    if (image.entity === 'creator' && before && after && changesShowViews(before, after)) last.delete(key);
  });
  return skip;
};
