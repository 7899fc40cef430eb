import type { CreatorRecord, EpisodeRecord, ShowRecord } from '../catalog/model.ts';
import { formatDuration } from '../format.ts';
import { streamUrls } from '../watch/stream-views.ts';
import { episodePlayback, type Viewer } from '../shows/entitlement.ts';
import type { HeroSlide, HomeLiveStream } from './schemas.ts';

/**
 * Hero slide (spec 4.1, key `show_id`): the show played from `episode`, for `viewer` (`is_locked`;
 * `stream_url` null when the episode is locked).
 */
export const heroItem = (show: ShowRecord, episode: EpisodeRecord, viewer: Viewer): HeroSlide => ({
  show_id: show.id,
  title: show.title,
  thumb_url: show.thumbnail_url || null,
  ...episodePlayback(episode, viewer),
  category: show.category,
  seasons: show.seasons.length,
  rating: show.rating,
  is_free: episode.access === 'free',
  description: show.description,
  duration_formatted: formatDuration(episode.duration_seconds),
});

/**
 * Stream summary (spec 2.5) of a live creator, with the creator it belongs to. Its URLs come from
 * `streamUrls` without a token: references, not playable (docs/live.md "Playback tokens").
 */
export const liveStreamSummary = (
  c: CreatorRecord,
  live: NonNullable<CreatorRecord['live']>,
): HomeLiveStream => ({
  stream_id: live.stream_id,
  title: live.title,
  started_at: live.started_at,
  ...streamUrls({ ...c, live }),
  creator_id: c.id,
  creator_name: c.name,
  channel_url: `/creators/${c.slug}`,
});
