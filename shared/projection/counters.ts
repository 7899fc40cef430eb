import { clock } from '../clock.ts';
import { playbackSessionOf } from '../analytics/playback-repository.ts';
import type { EpisodeRecord } from '../catalog/model.ts';
import { addCreatorCountersOperation } from '../creators/creator-repository.ts';
import { type TransactOperation, transactRetryingConflicts } from '../db/transaction.ts';
import { addEpisodeViewsOperation, addShowCountersOperation } from '../shows/show-repository.ts';
import { type CounterKind, setMarkerOperation } from './counted-marker-repository.ts';
import { addToTrendBucketOperation } from './trend-bucket-repository.ts';
import type { Item } from './views.ts';

export type { CounterKind };

/**
 * Counters that move (docs/projections.md, "Counters"): subscribers, followers and views are
 * stored on the items they count for, and moved by the projector when a source item starts or
 * stops counting. Each move is exactly once: it is one transaction with a marker item whose
 * existence says "counted" (put with `attribute_not_exists` when counting starts, deleted with
 * `attribute_exists` when it stops), so a repeated stream record finds the marker already in the
 * state it wants and moves nothing. Every counted item also gets `ADD version 1`, so the projector
 * then re-ranks it (its lists and search facets follow).
 * The markers are shared/projection/counted-marker-repository.ts's; a day's trend buckets
 * (shared/projection/trend-bucket-repository.ts) hold what it added to a 7-day window
 * (`subscribers_7d`, `views_7d`), taken off again by the hourly recompute when the day leaves the
 * window (shared/projection/windows.ts).
 */

export const dayOf = (at: Date) => at.toISOString().slice(0, 10);

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
  const marker = setMarkerOperation(kind, source, counted, clock.now());
  return transactRetryingConflicts([marker, ...moves]);
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
          addToTrendBucketOperation('subscribers', dayOf(now), creatorId, 1),
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
  const sessionId = playbackSessionOf(after);
  if (sessionId === undefined) return;
  await setCounted('view', sessionId, true, [
    addEpisodeViewsOperation(
      { showId: episode.show_id, season: episode.season, episode: episode.episode_number },
      1,
    ),
    addShowCountersOperation(episode.show_id, { total_views: 1, views_7d: 1 }),
    addCreatorCountersOperation(episode.creator_id, { views: 1 }),
    addToTrendBucketOperation('views', dayOf(now), episode.show_id, 1),
  ]);
};
