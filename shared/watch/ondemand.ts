import { requireCreator } from '../creators/creator-repository.ts';
import { getRelationship } from '../creators/relationship-repository.ts';
import { formatCount, formatDuration } from '../format.ts';
import { type Pagination, pageSlice, pagination } from '../pagination.ts';
import { loadMediaSigner } from '../playback/media-key.ts';
import { entitledViewer, episodePlayback } from '../shows/entitlement.ts';
import { listShowsByCreator } from '../shows/show-repository.ts';
import type { OndemandQuery, OnDemandItem, OnDemandPage } from './schemas.ts';

/**
 * `GET /creators/:id/channel/ondemand`: the creator's episodes as on-demand items. `is_locked` and
 * `stream_url` (null when locked) from the entitlement rule (shared/shows/entitlement.ts) for the
 * caller.
 */
export const onDemand = async (
  creatorId: string,
  accountId: string | undefined,
  q: OndemandQuery,
  now: Date,
): Promise<{ data: OnDemandPage; meta_data: Pagination }> => {
  const creator = await requireCreator(creatorId);
  const [shows, relationship, play] = await Promise.all([
    listShowsByCreator(creator.id),
    getRelationship(accountId, creator.id),
    loadMediaSigner(),
  ]);
  const viewer = entitledViewer(relationship.entitlements, now, play, accountId);
  const episodes = shows
    .flatMap((s) => s.episodes)
    .filter(
      (e) => (q.type === 'all' || e.access === q.type) && (q.season === undefined || e.season === q.season),
    );
  const content = pageSlice(episodes, q.page, q.limit).map(
    (e): OnDemandItem => ({
      content_id: e.id,
      type: e.access,
      title: e.title,
      thumbnail_url: e.thumbnail_url,
      duration_formatted: formatDuration(e.duration_seconds),
      is_free: e.access === 'free',
      ...episodePlayback(e, viewer),
      ...(e.access === 'free'
        ? { season: e.season, episode_number: e.episode_number, views_formatted: formatCount(e.views) }
        : {}),
      ...(e.access === 'ppv' ? { price: e.price, currency: e.currency } : {}),
    }),
  );
  return {
    data: { creator_id: creator.id, total: episodes.length, page: q.page, content },
    meta_data: pagination(episodes.length, q.page, q.limit),
  };
};
