import type { HomeLayout } from './home-repository.ts';

/** Seconds between hero slides (spec 8). */
export const HERO_AUTOPLAY_INTERVAL_SECONDS = 6;

/**
 * The layout the catalogue loader stores. Seed data only: requests read the stored item
 * (shared/home/home-repository.ts), never this constant.
 */
export const defaultHomeLayout = (now: Date): HomeLayout => ({
  updated_at: now.toISOString(),
  sections: [
    {
      type: 'hero',
      position: 1,
      title: null,
      path: '/home/hero',
      autoplay: true,
      autoplay_interval_seconds: HERO_AUTOPLAY_INTERVAL_SECONDS,
    },
    { type: 'live_now', position: 2, title: 'Live Now', path: '/home/live' },
    { type: 'most_viewed', position: 3, title: 'Most Viewed', path: '/shows/episodes/most-viewed' },
    { type: 'creators_row', position: 4, title: 'Featured Creators', path: '/creators/featured' },
    {
      type: 'category_row',
      position: 5,
      title: 'Comedy',
      path: '/shows?category=comedy',
      category_id: 'comedy',
    },
    {
      type: 'category_row',
      position: 6,
      title: 'Music',
      path: '/shows?category=music',
      category_id: 'music',
    },
    {
      type: 'category_row',
      position: 7,
      title: 'Gaming',
      path: '/shows?category=gaming',
      category_id: 'gaming',
    },
    {
      type: 'category_row',
      position: 8,
      title: 'Education',
      path: '/shows?category=education',
      category_id: 'education',
    },
  ],
});
