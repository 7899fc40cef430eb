import { allRankedIdsOf } from '../catalog/ranked-list.ts';
import { CREATOR_LISTS } from '../creators/creator-ranking.ts';
import { getStoredCreators, setCreatorAudience } from '../creators/creator-repository.ts';
import { viewerShardsOf } from '../audience/audience-scale.ts';
import { bucketOf, recordPeak } from '../audience/viewer-counter.ts';
import { bucketTotals } from '../audience/viewer-counter-repository.ts';

/**
 * `watching_now` in lists, from the live counters (docs/live.md "Viewers in lists"): once a
 * minute (EventBridge Scheduler on AWS, a timer in `npm start`) every channel in the live list
 * gets the count of its last complete 3-minute bucket (what `/channel/live/viewers` calls
 * viewers now, give or take the bucket still filling) written onto its creator item, which the
 * projector then re-ranks like any other change (the live list is most watched first). Only
 * counts that changed are written, each once per bucket (`watching_bucket` guards against an
 * overlapping or repeated run moving a count backwards), so a quiet channel costs one read a
 * minute and a channel whose viewers left is written 0 once. The work is bounded by the number
 * of live channels, never by the catalogue.
 * The same figure answers every heartbeat (shared/watch/watch-sessions.ts `publishedViewers`), so a heartbeat
 * reads no counters: `watching_previous` (the count it replaced) gives the heartbeat's `delta`, and
 * a count that stopped moving is written once more to bring the delta back to 0. A count that rose
 * raises the channel's peaks here (heartbeats no longer do), and the creator's `peak_all_time`
 * with it: the audience scale its counters are spread for (shared/audience/audience-scale.ts).
 */

export interface AudienceReport {
  /** Live channels looked at. */
  channels: number;
  /** Creator items whose `watching_now` was written. */
  published: number;
}

/** Creator ids in the live list (one Query page per 1 MB of entries: a few hundred channels). */
export const liveCreatorIds = (): Promise<string[]> => allRankedIdsOf(CREATOR_LISTS.live);

/** Publishes the last complete bucket's viewers of every live channel, as of `now`. */
export const publishAudiences = async (now: Date): Promise<AudienceReport> => {
  const bucket = bucketOf(now) - 1;
  const creators = (await getStoredCreators(await liveCreatorIds())).filter(
    (c) => c.live && !c.suspended_at && (c.watching_bucket ?? -1) < bucket,
  );
  const counts = await bucketTotals(
    creators.map((c) => ({ channelId: c.channel.channel_id, shards: viewerShardsOf(c) })),
    bucket,
  );
  let published = 0;
  for (const creator of creators) {
    const watching = counts.get(creator.channel.channel_id) ?? 0;
    const settled = (creator.watching_previous ?? creator.watching_now) === creator.watching_now;
    if (watching === creator.watching_now && settled) continue;
    // The peak first: the audience scale (shared/audience/audience-scale.ts) never shrinks under a reader.
    if (watching > creator.watching_now)
      await recordPeak(creator.channel.channel_id, watching, now, viewerShardsOf(creator));
    const peak = Math.max(creator.peak_all_time ?? 0, watching);
    if (await setCreatorAudience(creator.id, { watching, previous: creator.watching_now, bucket, peak }))
      published++;
  }
  return { channels: creators.length, published };
};
