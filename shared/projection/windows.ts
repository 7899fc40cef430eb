import { newestValueOf, rankedEntriesPage } from '../catalog/ranked-list.ts';
import { transactWriteIf } from '../db/transaction.ts';
import { addCreatorCountersOperation } from '../creators/creator-repository.ts';
import { addShowCountersOperation, markShowNotNew } from '../shows/show-repository.ts';
import { showListName } from '../shows/show-ranking.ts';
import { dayOf } from './counters.ts';
import {
  takeTrendBucketOperation,
  type TrendKind,
  trendBucketsOf,
  zeroTrendBucket,
} from './trend-bucket-repository.ts';

/**
 * What changes with time alone, moved on by the hourly recompute (EventBridge Scheduler on AWS,
 * a timer in `npm start`): the 7-day windows behind `trending` and the `is_new` flag of shows.
 * Each change is a write of the source item (`ADD version 1`), so the projector re-ranks it like
 * any other change; the work is bounded by what left the window, never by the catalogue.
 * - 7-day windows: a day's trend buckets (shared/projection/trend-bucket-repository.ts) are taken off
 *   `subscribers_7d` / `views_7d` once the day is 7 days old, each in one transaction with the
 *   bucket's deletion (so a repeated run takes nothing twice). Days 7 to 14 back are swept, so an
 *   outage of up to a week loses nothing.
 * - `is_new`: a show is new for NEW_DAYS after its release; the oldest entries of the new shows'
 *   `newest` list are read until one is still new, and the others get `is_new: false`.
 */
export const WINDOW_DAYS = 7;
export const NEW_DAYS = 30;
const DAY = 86_400_000;
const SWEEP_DAYS = 7;

const expireBuckets = async (kind: TrendKind, day: string): Promise<number> => {
  let moved = 0;
  for (const { id, n } of await trendBucketsOf(kind, day)) {
    const done = await transactWriteIf([
      takeTrendBucketOperation(kind, day, id, n),
      kind === 'subscribers'
        ? addCreatorCountersOperation(id, { subscribers_7d: -n })
        : addShowCountersOperation(id, { views_7d: -n }),
    ]);
    if (done) moved++;
    // The counted item is gone: the bucket has nothing left to take from.
    else await zeroTrendBucket(kind, day, id);
  }
  return moved;
};

/** Shows past their NEW_DAYS: read from the old end of the new shows' newest-first list. */
const expireNewShows = async (now: Date): Promise<number> => {
  const cutoff = now.getTime() - NEW_DAYS * DAY;
  let expired = 0;
  const newest = showListName('all', 'all', 'yes', 'any', 'newest');
  let start: Record<string, unknown> | undefined;
  for (;;) {
    const page = await rankedEntriesPage(newest, start, 25, { fromEnd: true });
    for (const entry of page.entries) {
      if (newestValueOf(entry.key) >= cutoff) return expired;
      if (await markShowNotNew(entry.id)) expired++;
    }
    start = page.next;
    if (!start) return expired;
  }
};

export interface RecomputeReport {
  /** Trend buckets taken off a 7-day window. */
  buckets: number;
  /** Shows no longer new. */
  noLongerNew: number;
}

/** Moves the time windows on to `now`. */
export const recomputeWindows = async (now: Date): Promise<RecomputeReport> => {
  let buckets = 0;
  for (let back = WINDOW_DAYS; back < WINDOW_DAYS + SWEEP_DAYS; back++) {
    const day = dayOf(new Date(now.getTime() - back * DAY));
    buckets += (await expireBuckets('subscribers', day)) + (await expireBuckets('views', day));
  }
  return { buckets, noLongerNew: await expireNewShows(now) };
};
