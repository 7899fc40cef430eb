import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand } from '../db/document.ts';
import type { EpisodeRecord } from '../catalog/model.ts';
import { addCreatorCountersOperation } from '../creators/creator-repository.ts';
import { addEpisodeViewsOperation, addShowCountersOperation } from '../shows/show-repository.ts';
import { TABLE, tableName } from '../db/table.ts';
import { updateOf } from '../db/update.ts';
import { db } from '../db/client.ts';
import type { TransactOperation } from '../db/transaction.ts';
import type { Item } from './views.ts';

/**
 * Counters that move (docs/projections.md, "Counters"): subscribers, followers and views are
 * stored on the items they count for, and moved by the projector when a source item starts or
 * stops counting. Each move is exactly once: it is one transaction with a marker item whose
 * existence says "counted" (put with `attribute_not_exists` when counting starts, deleted with
 * `attribute_exists` when it stops), so a repeated stream record finds the marker already in the
 * state it wants and moves nothing. Every counted item also gets `ADD version 1`, so the projector
 * then re-ranks it (its lists and search facets follow).
 * Key design (owned here):
 * - marker: PK `COUNTED#<kind>#<source key>`, SK `MARKER`;
 * - trend bucket: PK `TREND#<kind>#<UTC day>`, SK `<id>` → `n`: what a day added to a 7-day
 *   window (`subscribers_7d`, `views_7d`), taken off again by the hourly recompute when the day
 *   leaves the window (shared/projection/windows.ts).
 */
export type CounterKind = 'subscriber' | 'follower' | 'view';

const markerKey = (kind: CounterKind, source: string) => ({ PK: `COUNTED#${kind}#${source}`, SK: 'MARKER' });

/** The marker of a relationship the seed loader writes already counted (its counts include it). */
export const relationshipMarkerItem = (
  kind: 'subscriber' | 'follower',
  accountId: string,
  creatorId: string,
) => ({
  ...markerKey(kind, `${accountId}#${creatorId}`),
  at: 'seed',
});

/** The key of a trend bucket: what `day` added to `id`'s 7-day window of `kind`. */
export const trendBucketKey = (kind: 'subscribers' | 'views', day: string, id: string) => ({
  PK: `TREND#${kind}#${day}`,
  SK: id,
});

export const dayOf = (at: Date) => at.toISOString().slice(0, 10);

/** `ADD n :delta` on a trend bucket (created by the first add). */
export const addToBucket = (key: { PK: string; SK: string }, delta: number): TransactOperation => ({
  Update: {
    TableName: tableName(),
    Key: key,
    ...updateOf({
      add: { n: delta },
      setIfAbsent: { [TABLE.ttlAttribute]: Math.floor(Date.now() / 1000) + 30 * 86_400 },
    }),
  },
});

/**
 * Makes `source`'s counting state `counted`: when it differs from its marker, moves the marker
 * and applies `moves` (the counter updates) in one transaction. Returns whether anything moved.
 * A cancelled transaction because the marker was already in place is the repeated record: nothing
 * to do. One whose counted item is gone (a deleted creator or episode) moves nothing either.
 * Conflicts with concurrent transactions on the same counted item are retried.
 */
export const setCounted = async (
  kind: CounterKind,
  source: string,
  counted: boolean,
  moves: readonly TransactOperation[],
): Promise<boolean> => {
  const marker: TransactOperation = counted
    ? {
        Put: {
          TableName: tableName(),
          Item: { ...markerKey(kind, source), at: new Date().toISOString() },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      }
    : {
        Delete: {
          TableName: tableName(),
          Key: markerKey(kind, source),
          ConditionExpression: 'attribute_exists(PK)',
        },
      };
  for (let attempt = 0; ; attempt++) {
    try {
      await db.send(new TransactWriteCommand({ TransactItems: [marker, ...moves] }));
      return true;
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const codes = (error.CancellationReasons ?? []).map((r) => r.Code);
      if (codes.includes('ConditionalCheckFailed')) return false;
      if (attempt >= 5) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** attempt + Math.random() * 20));
    }
  }
};

/**
 * A subscription entitlement counts while it is paid up or in its grace (`active`, `past_due`)
 * and not cancelled at period end (cancelling stops the count at once).
 */
export const subscriptionCounts = (item: Item | undefined) =>
  (item?.status === 'active' || item?.status === 'past_due') && item.cancel_at_period_end !== true;

/** Moves a creator's subscribers (and, on a gain, its 7-day window) as a subscription changes. */
export const countSubscription = async (before: Item | undefined, after: Item | undefined, now: Date) => {
  const image = (after ?? before)!;
  const counted = subscriptionCounts(after);
  if (counted === subscriptionCounts(before) && before !== undefined && after !== undefined) return;
  const creatorId = String(image.creator_id);
  const delta = counted ? 1 : -1;
  await setCounted(
    'subscriber',
    `${image.account_id}#${creatorId}`,
    counted,
    counted
      ? [
          addCreatorCountersOperation(creatorId, { subscribers: 1, subscribers_7d: 1 }),
          addToBucket(trendBucketKey('subscribers', dayOf(now), creatorId), 1),
        ]
      : [addCreatorCountersOperation(creatorId, { subscribers: delta })],
  );
};

/** Moves a creator's followers as a follow is made or removed. */
export const countFollow = async (before: Item | undefined, after: Item | undefined) => {
  const image = (after ?? before)!;
  const creatorId = String(image.creator_id);
  await setCounted('follower', `${image.account_id}#${creatorId}`, after !== undefined, [
    addCreatorCountersOperation(creatorId, { followers: after !== undefined ? 1 : -1 }),
  ]);
};

/**
 * Counts the view of a playback session that just reached the threshold (it got `counted_at`):
 * the episode's `views`, its show's `total_views` and `views_7d` (with today's trend bucket) and
 * the creator's `views`, once per session.
 */
export const countView = async (
  before: Item | undefined,
  after: Item | undefined,
  episodeOf: (contentId: string) => Promise<EpisodeRecord | undefined>,
  now: Date,
) => {
  if (!after?.counted_at || before?.counted_at) return;
  const episode = await episodeOf(String(after.content_id));
  if (!episode) return; // not a catalogue episode (a trailer, a deleted one): no view to count
  await setCounted('view', String(after.PK).slice('PLAYBACK#'.length), true, [
    addEpisodeViewsOperation(
      { showId: episode.show_id, season: episode.season, episode: episode.episode_number },
      1,
    ),
    addShowCountersOperation(episode.show_id, { total_views: 1, views_7d: 1 }),
    addCreatorCountersOperation(episode.creator_id, { views: 1 }),
    addToBucket(trendBucketKey('views', dayOf(now), episode.show_id), 1),
  ]);
};
