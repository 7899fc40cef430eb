import { listLiveCreators } from '../creators/creator-repository.ts';
import { ServiceUnavailableError } from '../http/errors.ts';
import { pagination } from '../pagination.ts';
import { getFirstEpisodes, listShows } from '../shows/show-repository.ts';
import { getHomeLayout } from './home-repository.ts';
import { heroItem, liveStreamSummary } from './home-views.ts';

/** `GET /home`: the stored sections in `position` order. */
export const homeSections = async () => {
  const layout = await getHomeLayout();
  if (!layout) throw new ServiceUnavailableError('Home layout is not configured');
  return [...layout.sections].sort((a, b) => a.position - b.position);
};

/** Slides in the hero carousel. */
export const HERO_ITEMS = 5;

/**
 * `GET /home/hero`: the most popular featured shows, each played from its first episode
 * (shows without episodes are skipped).
 */
export const heroSlides = async () => {
  const { shows } = await listShows(
    { category: 'all', rating: 'all', isNew: null, isFeatured: true, sort: 'most_popular' },
    1,
    HERO_ITEMS,
  );
  const first = await getFirstEpisodes(shows.map((s) => s.id));
  return shows.flatMap((show) => {
    const episode = first.get(show.id);
    return episode ? [heroItem(show, episode)] : [];
  });
};

/** `GET /home/live`: stream summaries of live creators, most watched first (paginated). */
export const liveStreams = async (page: number, limit: number) => {
  const { creators, total } = await listLiveCreators(page, limit);
  return {
    data: creators.flatMap((c) => (c.live ? [liveStreamSummary(c, c.live)] : [])),
    meta_data: pagination(total, page, limit),
  };
};
