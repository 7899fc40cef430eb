import { listLiveCreators } from '../creators/creator-listings.ts';
import { ServiceUnavailableError } from '../errors/errors.ts';
import { type Pagination, pagination } from '../pagination.ts';
import { loadMediaSigner } from '../playback/media-key.ts';
import { anonymous } from '../shows/entitlement.ts';
import { showListPage } from '../shows/show-listings.ts';
import { getFirstEpisodes, getShows } from '../shows/show-repository.ts';
import { getHomeLayout } from './home-repository.ts';
import { heroItem, liveStreamSummary } from './home-views.ts';
import type { HeroSlide, HomeLiveStream, HomeSection } from './schemas.ts';

/**
 * `GET /home`: the stored sections in `position` order. A signed-in viewer also gets a
 * `continue_watching` section right after the hero (positions renumbered).
 */
export const homeSections = async (accountId?: string): Promise<HomeSection[]> => {
  const layout = await getHomeLayout();
  if (!layout) throw new ServiceUnavailableError('Home layout is not configured');
  const sections: HomeSection[] = [...layout.sections].sort((a, b) => a.position - b.position);
  if (accountId) {
    const at = sections.findIndex((s) => s.type === 'hero') + 1;
    sections.splice(at, 0, {
      type: 'continue_watching',
      position: 0,
      title: 'Continue Watching',
      path: '/me/continue-watching',
    });
  }
  return sections.map((section, i) => ({ ...section, position: i + 1 }));
};

/** Slides in the hero carousel. */
export const HERO_ITEMS = 5;

/**
 * `GET /home/hero`: the most popular featured shows, each played from its first episode
 * (shows without episodes are skipped). Public: entitlements are an anonymous viewer's.
 */
export const heroSlides = async (): Promise<HeroSlide[]> => {
  const { entries } = await showListPage(
    { category: 'all', rating: 'all', isNew: null, isFeatured: true, sort: 'most_popular' },
    1,
    HERO_ITEMS,
  );
  // The shows and their first episodes at once: both need only the ids (two round trips, issue 41).
  const ids = entries.map((e) => e.id);
  const [shows, first, play] = await Promise.all([getShows(ids), getFirstEpisodes(ids), loadMediaSigner()]);
  const viewer = anonymous(play);
  return shows.flatMap((show) => {
    const episode = first.get(show.id);
    return episode ? [heroItem(show, episode, viewer)] : [];
  });
};

/** `GET /home/live`: stream summaries of live creators, most watched first (paginated). */
export const liveStreams = async (
  page: number,
  limit: number,
): Promise<{ data: HomeLiveStream[]; meta_data: Pagination }> => {
  const { creators, total } = await listLiveCreators(page, limit);
  return {
    data: creators.flatMap((c) => (c.live ? [liveStreamSummary(c, c.live)] : [])),
    meta_data: pagination(total, page, limit),
  };
};
