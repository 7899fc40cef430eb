import { GetCommand } from '../db/document.ts';
import type { CreatorRecord, IvsChannel } from '../catalog/model.ts';
import { batchGet } from '../db/batch.ts';
import { db } from '../db/client.ts';
import { getByIndex, queryAll } from '../db/query.ts';
import { recordOf } from '../db/record.ts';
import { tableName } from '../db/table.ts';
import { type TransactOperation, writeIf } from '../db/transaction.ts';
import { type UpdateSpec, updateOf, withCondition } from '../db/update.ts';
import { NotFoundError } from '../errors/errors.ts';

/**
 * Creators: key design and access patterns (see docs/data-model.md).
 * - profile:  PK `CREATOR#<id>`, SK `PROFILE` (the whole CreatorRecord)
 * - by slug:  GSI1PK `CREATOR_SLUG#<slug>`, GSI1SK `CREATOR`
 * - by channel: GSI2PK `CHANNEL#<channel id>`, GSI2SK `CREATOR`
 * - search:   inverted index kind `creator` over name and handle, with cards (shared/creators/creator-search.ts)
 * Listings are ranked lists (shared/creators/creator-ranking.ts, creator-listings.ts); search
 * pages are shared/creators/creator-search.ts.
 *
 * This module is the only writer of the profile item: every change is a named write below
 * (profile, editorial flags, suspension, moderation, channel, chat room, counters, live state,
 * audience, recording), each one conditional UpdateItem that adds 1 to `version` (the projector's
 * views compare versions, docs/projections.md), except the live thumbnail and recording, which
 * no view shows. Callers never write an expression or name an attribute of the item.
 */

const key = (id: string) => ({ PK: `CREATOR#${id}`, SK: 'PROFILE' });

/** The stored item of one creator's profile (a source item). */
export const creatorItem = (creator: CreatorRecord): Record<string, unknown> => ({
  ...key(creator.id),
  GSI1PK: `CREATOR_SLUG#${creator.slug}`,
  GSI1SK: 'CREATOR',
  GSI2PK: `CHANNEL#${creator.channel.channel_id}`,
  GSI2SK: 'CREATOR',
  entity: 'creator',
  ...creator,
});

/** The key of a creator's profile item. */
export const creatorKey = key;

/** A stored creator as the public sees it: none while an operator has it suspended. */
const creatorOf = (item: Record<string, unknown> | undefined): CreatorRecord | undefined =>
  item && !item.suspended_at ? recordOf<CreatorRecord>(item) : undefined;

/** Is this a creator id (`cr_…` from the catalogue, `acc_…` for a creator who signed up) rather than a slug? */
export const isCreatorId = (idOrSlug: string) => idOrSlug.startsWith('cr_') || idOrSlug.startsWith('acc_');

/** One creator by id (`cr_…`, `acc_…`) or by slug (the `/creators/<slug>` channel URL form). */
export const getCreator = async (idOrSlug: string): Promise<CreatorRecord | undefined> => {
  if (isCreatorId(idOrSlug)) {
    const result = await db.send(new GetCommand({ TableName: tableName(), Key: key(idOrSlug) }));
    return creatorOf(result.Item);
  }
  return creatorOf(await getByIndex('GSI1', { pk: `CREATOR_SLUG#${idOrSlug.toLowerCase()}`, sk: 'CREATOR' }));
};

/** The creator owning a channel id (`ch_…`): one Query on GSI2. */
export const getCreatorByChannel = async (channelId: string): Promise<CreatorRecord | undefined> =>
  creatorOf(await getByIndex('GSI2', { pk: `CHANNEL#${channelId}`, sk: 'CREATOR' }));

/** The creator or a 404 (spec 7: creator not found). */
export const requireCreator = async (idOrSlug: string): Promise<CreatorRecord> => {
  const creator = await getCreator(idOrSlug);
  if (!creator) throw new NotFoundError('Creator not found');
  return creator;
};

/** Creators by id, in the order given (unknown ids are left out). One BatchGetItem per 100. */
export const getCreators = async (ids: readonly string[]): Promise<CreatorRecord[]> =>
  (await batchGet(ids.map(key))).flatMap((item) => creatorOf(item) ?? []);

/**
 * Creators by id as stored, suspended ones included (unknown ids left out; eventually
 * consistent): the IVS reconcile's view of the channels it corrects, the audience publisher's
 * and the realtime tick's read. One BatchGetItem per 100.
 */
export const getStoredCreators = async (ids: readonly string[]): Promise<StoredCreator[]> =>
  (await batchGet(ids.map(key))).map((item) => recordOf<StoredCreator>(item));

/**
 * Every item of a creator's partition (`CREATOR#<id>`: the profile, suspended or not, and what
 * other modules keep there: payouts, earnings), read consistently: a deleted account's purge.
 */
export const creatorPartition = (creatorId: string): Promise<Record<string, unknown>[]> =>
  queryAll({
    KeyConditionExpression: 'PK = :pk',
    ExpressionAttributeValues: { ':pk': key(creatorId).PK },
    ConsistentRead: true,
  });

// ---- Named writes ------------------------------------------------------------------------------

/** The creator item as stored: the record and what only the platform keeps on it. */
/** A creator item with what the audience publisher keeps on it beside `watching_now` (shared/watch/audience-publisher.ts). */
export type PublishedCreator = CreatorRecord & { watching_previous?: number };

export type StoredCreator = PublishedCreator & {
  version: number;
  suspended_at?: string;
  ivs?: IvsChannel;
  stream_health?: string;
  moderation?: Record<string, unknown>;
  /** The minute bucket whose audience `watching_now` is (`setCreatorAudience`). */
  watching_bucket?: number;
};

/** The profile exists (the PK attribute is on every stored item). */
const EXISTS = { expression: 'attribute_exists(PK)' };
/** The creator has an IVS channel. */
const HAS_CHANNEL = { expression: 'attribute_exists(ivs)' };

type Condition = Parameters<typeof withCondition>[1];

/** One conditional update of the profile item (`version` + 1 unless `unversioned`). */
const update = (
  creatorId: string,
  spec: UpdateSpec,
  condition: Condition,
  options: { unversioned?: boolean; returnNew?: boolean } = {},
) =>
  writeIf({
    Update: {
      Key: key(creatorId),
      ...withCondition(
        updateOf(options.unversioned ? spec : { ...spec, add: { ...spec.add, version: 1 } }),
        condition,
      ),
      ...(options.returnNew ? { ReturnValues: 'ALL_NEW' as const } : {}),
    },
  });

/** The stored creator after a write that returned it, or undefined when its condition refused it. */
const after = async (outcome: ReturnType<typeof update>): Promise<StoredCreator | undefined> => {
  const result = await outcome;
  return result.written ? recordOf<StoredCreator>(result.attributes ?? {}) : undefined;
};

/** Creates a creator's profile item (`version` 1) unless one exists: onboarding's projection. */
export const createCreator = async (creator: CreatorRecord): Promise<'created' | 'exists'> =>
  (
    await writeIf({
      Put: { Item: { ...creatorItem(creator), version: 1 }, ConditionExpression: 'attribute_not_exists(PK)' },
    })
  ).written
    ? 'created'
    : 'exists';

/** The fields a creator edits in the studio (`PATCH /studio/profile`). */
export interface ProfileFields {
  name?: string;
  initials?: string;
  channelName?: string;
  description?: string;
  avatarUrl?: string | null;
  category?: CreatorRecord['category'];
}

/** Sets the given profile fields; the creator after, or undefined when it does not exist. */
export const updateCreatorProfile = (creatorId: string, fields: ProfileFields) =>
  after(
    update(
      creatorId,
      {
        set: {
          name: fields.name,
          initials: fields.initials,
          'channel.channel_name': fields.channelName,
          description: fields.description,
          avatar_url: fields.avatarUrl,
          category: fields.category,
        },
      },
      EXISTS,
      { returnNew: true },
    ),
  );

/** The editorial fields only an operator sets. */
export interface EditorialFields {
  is_featured?: boolean;
  is_hot?: boolean;
  tier?: CreatorRecord['tier'];
}

/** Sets an operator's editorial fields; the creator after, or undefined when it does not exist. */
export const setCreatorEditorial = (creatorId: string, fields: EditorialFields) =>
  after(update(creatorId, { set: { ...fields } }, EXISTS, { returnNew: true }));

/**
 * Suspends the creator from `at` (`suspended_at`; reads hide it), or lifts the suspension when
 * `at` is undefined. The creator after, or undefined when it does not exist.
 */
export const setCreatorSuspension = (creatorId: string, options: { at: Date | undefined }) =>
  after(
    update(
      creatorId,
      options.at ? { set: { suspended_at: options.at.toISOString() } } : { remove: ['suspended_at'] },
      EXISTS,
      { returnNew: true },
    ),
  );

/** Records an operator's moderation of the channel; false when the creator has no channel. */
export const recordCreatorModeration = async (
  creatorId: string,
  moderation: Record<string, unknown>,
): Promise<boolean> => (await update(creatorId, { set: { moderation } }, HAS_CHANNEL)).written;

/**
 * The transaction operation attaching a provisioned IVS channel to the creator, on condition it
 * exists and has none yet (the studio's provisioning writes it with the channel's lookup items).
 */
export const attachCreatorChannelOperation = (creatorId: string, channel: IvsChannel): TransactOperation => ({
  Update: {
    TableName: tableName(),
    Key: key(creatorId),
    ...withCondition(updateOf({ set: { ivs: channel }, add: { version: 1 } }), {
      expression: 'attribute_exists(PK) AND attribute_not_exists(ivs)',
    }),
  },
});

/** Sets the channel's chat room unless it has one; false when it has one (or no channel). */
export const setCreatorChatRoom = async (creatorId: string, roomArn: string): Promise<boolean> =>
  (
    await update(
      creatorId,
      { set: { 'ivs.chat_room_arn': roomArn } },
      { expression: 'attribute_exists(ivs) AND attribute_not_exists(ivs.chat_room_arn)' },
    )
  ).written;

/** Forgets the channel's chat room `roomArn`; false when the channel has another (or none). */
export const clearCreatorChatRoom = async (creatorId: string, roomArn: string): Promise<boolean> =>
  (
    await update(
      creatorId,
      { remove: ['ivs.chat_room_arn'] },
      { expression: 'ivs.chat_room_arn = :c0', values: { ':c0': roomArn } },
    )
  ).written;

/** The counters the projector moves on a creator (subscribers, followers, views, 7-day window). */
export type CreatorCounters = Partial<
  Record<'subscribers' | 'subscribers_7d' | 'followers' | 'views', number>
>;

/**
 * The transaction operation adding `counters` (negative to take off) to the creator, on
 * condition it exists (shared/projection/counters.ts moves it with its marker).
 */
export const addCreatorCountersOperation = (
  creatorId: string,
  counters: CreatorCounters,
): TransactOperation => ({
  Update: {
    TableName: tableName(),
    Key: key(creatorId),
    ...withCondition(updateOf({ add: { ...counters, version: 1 } }), EXISTS),
  },
});

// ---- Live state (IVS events and the reconcile; shared/channels/channel-state.ts) -------------------

/** A state change at `t` is newer than the one recorded. */
const NEWER_STATE = '(attribute_not_exists(live_state_ms) OR live_state_ms < :c0)';

/**
 * Live with `live` from time `t` (ms). Also at the recorded time when that change was about
 * another stream (the previous stream's End in the same second); never over this stream's own
 * End. `health` is as of `t`; without one the stream is taken as healthy. False when refused.
 */
export const setCreatorLive = async (
  creatorId: string,
  options: { live: NonNullable<CreatorRecord['live']>; t: number; health?: string },
): Promise<boolean> => {
  const { live, t, health } = options;
  return (
    await update(
      creatorId,
      {
        set: {
          live,
          live_state_ms: t,
          live_state_stream_id: live.stream_id,
          stream_health: health ?? 'healthy',
          ...(health ? { health_ms: t } : {}),
        },
        ...(health ? {} : { remove: ['health_ms'] }),
      },
      {
        expression: `attribute_exists(ivs) AND (${NEWER_STATE} OR (live_state_ms = :c0 AND live_state_stream_id <> :c1))`,
        values: { ':c0': t, ':c1': live.stream_id },
      },
    )
  ).written;
};

/**
 * Offline at `t` (no stream, no health, no viewers: the next stream starts from 0). `by: 'event'`
 * (an event naming stream `streamId`): when newer, or this stream's End in the second it
 * started. `by: 'reconcile'` (IVS lists no stream): while `streamId` is still the recorded one
 * and the change is newer. False when refused.
 */
export const setCreatorOffline = async (
  creatorId: string,
  options: { streamId: string; t: number; by: 'event' | 'reconcile' },
): Promise<boolean> =>
  (
    await update(
      creatorId,
      {
        set: {
          live: null,
          live_state_ms: options.t,
          live_state_stream_id: options.streamId,
          watching_now: 0,
        },
        remove: ['stream_health', 'health_ms'],
      },
      {
        expression:
          options.by === 'event'
            ? `attribute_exists(ivs) AND (${NEWER_STATE} OR (live_state_ms = :c0 AND live.stream_id = :c1))`
            : `live.stream_id = :c1 AND ${NEWER_STATE}`,
        values: { ':c0': options.t, ':c1': options.streamId },
      },
    )
  ).written;

/** Health of the current stream `streamId` as of `t`; false when another stream or an older change. */
export const setCreatorStreamHealth = async (
  creatorId: string,
  options: { streamId: string; health: string; t: number },
): Promise<boolean> =>
  (
    await update(
      creatorId,
      { set: { stream_health: options.health, health_ms: options.t } },
      {
        expression: 'live.stream_id = :c1 AND (attribute_not_exists(health_ms) OR health_ms < :c0)',
        values: { ':c0': options.t, ':c1': options.streamId },
      },
    )
  ).written;

/**
 * The audience of a live channel for minute bucket `bucket` (shared/watch/audience-publisher.ts):
 * written while live and for a newer bucket only; false otherwise.
 */
export const setCreatorAudience = async (
  creatorId: string,
  audience: { watching: number; previous: number; bucket: number; peak: number },
): Promise<boolean> =>
  (
    await update(
      creatorId,
      {
        set: {
          watching_now: audience.watching,
          watching_previous: audience.previous,
          watching_bucket: audience.bucket,
          peak_all_time: audience.peak,
        },
      },
      {
        expression:
          'attribute_type(live, :c0) AND (attribute_not_exists(watching_bucket) OR watching_bucket < :c1)',
        values: { ':c0': 'M', ':c1': audience.bucket },
      },
    )
  ).written;

/**
 * The recording of the current stream (`live_recording`), unless a later one is recorded or the
 * creator has no channel; false then. Unversioned: no view shows it.
 */
export const setCreatorLiveRecording = async (
  creatorId: string,
  recording: NonNullable<CreatorRecord['live_recording']>,
): Promise<boolean> =>
  (
    await update(
      creatorId,
      { set: { live_recording: recording } },
      {
        expression:
          'attribute_exists(ivs) AND (attribute_not_exists(live_recording) OR live_recording.started_ms <= :c0)',
        values: { ':c0': recording.started_ms },
      },
      { unversioned: true },
    )
  ).written;

/** The live thumbnail of stream `streamId` while it is the current one; false otherwise. Unversioned. */
export const setCreatorLiveThumbnail = async (
  creatorId: string,
  options: { streamId: string; url: string },
): Promise<boolean> =>
  (
    await update(
      creatorId,
      { set: { 'live.thumbnail_url': options.url } },
      { expression: '#c0.stream_id = :c0', names: { '#c0': 'live' }, values: { ':c0': options.streamId } },
      { unversioned: true },
    )
  ).written;

/**
 * The creator item as stored now, suspended or not, read consistently (a write may have just
 * changed it): the studio's and the operator's view of their own creator.
 */
export const getStoredCreator = async (creatorId: string): Promise<StoredCreator | undefined> => {
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName(), Key: key(creatorId), ConsistentRead: true }),
  );
  return Item ? recordOf<StoredCreator>(Item) : undefined;
};

/** What a show's search cards carry of its creator (id, name, verified), read consistently: the projector's read. */
export const getCreatorCard = async (
  creatorId: string,
): Promise<Pick<CreatorRecord, 'id' | 'name' | 'is_verified'> | undefined> => {
  const { Item } = await db.send(
    new GetCommand({
      TableName: tableName(),
      Key: key(creatorId),
      ProjectionExpression: 'id, #name, is_verified',
      ExpressionAttributeNames: { '#name': 'name' },
      ConsistentRead: true,
    }),
  );
  return Item as Pick<CreatorRecord, 'id' | 'name' | 'is_verified'> | undefined;
};
