import { requireCreator } from '../creators/creator-repository.ts';
import { getRelationship, grantsAccess } from '../creators/relationship-repository.ts';
import { formatCount, formatDuration } from '../format.ts';
import { pageSlice, pagination } from '../pagination.ts';
import { listShowsByCreator } from '../shows/show-repository.ts';

/**
 * `GET /creators/:id/channel/ondemand`: the creator's episodes as on-demand items. `is_locked`
 * from the caller's entitlements: free never; premium unless subscribed; pay-per-view always
 * (no purchase records exist yet). Locked items carry `stream_url: null`.
 */
export const onDemand = async (
  creatorId: string,
  accountId: string | undefined,
  q: { type: 'all' | 'free' | 'premium' | 'ppv'; season?: number; page: number; limit: number },
  now: Date,
) => {
  const creator = await requireCreator(creatorId);
  const [shows, relationship] = await Promise.all([
    listShowsByCreator(creator.id),
    getRelationship(accountId, creator.id),
  ]);
  const subscribed = grantsAccess(relationship.subscription, now);
  const episodes = shows
    .flatMap((s) => s.episodes)
    .filter(
      (e) => (q.type === 'all' || e.access === q.type) && (q.season === undefined || e.season === q.season),
    );
  const content = pageSlice(episodes, q.page, q.limit).map((e) => {
    const locked = e.access === 'ppv' || (e.access === 'premium' && !subscribed);
    return {
      content_id: e.id,
      type: e.access,
      title: e.title,
      thumbnail_url: e.thumbnail_url,
      duration_formatted: formatDuration(e.duration_seconds),
      is_free: e.access === 'free',
      is_locked: locked,
      stream_url: locked ? null : e.stream_url,
      ...(e.access === 'free'
        ? { season: e.season, episode_number: e.episode_number, views_formatted: formatCount(e.views) }
        : {}),
      ...(e.access === 'ppv' ? { price: e.price, currency: e.currency } : {}),
    };
  });
  return {
    data: { creator_id: creator.id, total: episodes.length, page: q.page, content },
    meta_data: pagination(episodes.length, q.page, q.limit),
  };
};
