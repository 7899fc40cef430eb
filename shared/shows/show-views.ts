import type { CreatorRecord, EpisodeRecord, ShowRecord } from '../catalog/model.ts';
import { formatCount, formatDuration } from '../format.ts';

/**
 * Show and episode response shapes (spec 2.2, 4.3). Pure: records in, spec objects out.
 * The spec names the show key `id` in `/shows`, `/shows/new-releases` and `/shows/search`, and
 * `show_id` in `/shows/featured`, show detail, categories-top and hero items.
 */
type CreatorLite = Pick<CreatorRecord, 'id' | 'name' | 'is_verified' | 'avatar_url' | 'slug'>;

/** Creator of a show as show items carry it (a stand-in when the creator record is missing). */
const creatorRef = (show: ShowRecord, creator: CreatorLite | undefined) => ({
  id: show.creator_id,
  name: creator?.name ?? '',
  is_verified: creator?.is_verified ?? false,
});

/** The season id used in every response that names seasons: `<show id>_s<number>`. */
export const seasonId = (showId: string, season: number) => `${showId}_s${season}`;

const summaryFields = (show: ShowRecord, creator: CreatorLite | undefined) => ({
  title: show.title,
  thumbnail_url: show.thumbnail_url,
  thumbnail_color: show.thumbnail_color,
  category: show.category,
  creator: creatorRef(show, creator),
  seasons: show.seasons.length,
  rating: show.rating,
  tags: show.tags,
  is_new: show.is_new,
  is_featured: show.is_featured,
  total_views: show.total_views,
  total_views_formatted: formatCount(show.total_views),
  channel_url: `/shows/${show.slug}`,
});

/** Item of `/shows` and `/shows/new-releases` (key `id`). */
export const showListItem = (show: ShowRecord, creator: CreatorLite | undefined) => ({
  id: show.id,
  ...summaryFields(show, creator),
});

/** Item of `/shows/featured` (key `show_id`). */
export const featuredShowItem = (show: ShowRecord, creator: CreatorLite | undefined) => ({
  show_id: show.id,
  ...summaryFields(show, creator),
});

/** Item of `/shows/search` (key `id`, no `thumbnail_color`). */
export const searchShowItem = (show: ShowRecord, creator: CreatorLite | undefined) => {
  const { thumbnail_color: _c, ...rest } = summaryFields(show, creator);
  return { id: show.id, ...rest };
};

/** Episode object (spec 2.2), with `thumbnail_url` as in show detail. */
export const episodeView = (e: EpisodeRecord) => ({
  episode_id: e.id,
  season: e.season,
  episode_number: e.episode_number,
  title: e.title,
  duration_seconds: e.duration_seconds,
  duration_formatted: formatDuration(e.duration_seconds),
  views: e.views,
  views_formatted: formatCount(e.views),
  is_free: e.access === 'free',
  is_premium: e.access !== 'free',
  stream_url: e.stream_url,
  air_date: e.air_date,
  thumbnail_url: e.thumbnail_url,
});

/** `GET /shows/:id`: the summary (key `show_id`) plus description, richer creator and episodes. */
export const showDetail = (
  show: ShowRecord,
  creator: CreatorLite | undefined,
  episodes: readonly EpisodeRecord[],
) => ({
  show_id: show.id,
  ...summaryFields(show, creator),
  description: show.description,
  creator: {
    ...creatorRef(show, creator),
    avatar_url: creator?.avatar_url ?? null,
    channel_url: creator ? `/creators/${creator.slug}` : `/creators/${show.creator_id}`,
  },
  episodes: episodes.map(episodeView),
});

/** Item of `/shows/episodes/most-viewed`. */
export const mostViewedEpisodeItem = (e: EpisodeRecord) => ({
  episode_id: e.id,
  show_id: e.show_id,
  episode_number: e.episode_number,
  season: e.season,
  title: e.title,
  duration_formatted: formatDuration(e.duration_seconds),
  views: e.views,
  views_formatted: formatCount(e.views),
  is_free: e.access === 'free',
  thumb_url: e.thumbnail_url || null,
  stream_url: e.stream_url,
});

/** Show of a `/shows/categories-top` entry (key `show_id`). */
export const topCategoryShow = (show: ShowRecord) => ({
  show_id: show.id,
  title: show.title,
  category: show.category,
  seasons: show.seasons.length,
  rating: show.rating,
  is_new: show.is_new,
  is_featured: show.is_featured,
  total_views_formatted: formatCount(show.total_views),
});

/** What a viewer holds that can unlock episodes. */
export interface Viewer {
  /** True when the viewer's subscription to the show's creator grants access now. */
  isSubscribed: boolean;
}

export const ANONYMOUS: Viewer = { isSubscribed: false };

/**
 * `gating_context` of an episode (spec 2.8 leaves it open; designed here, documented in docs/shows.md):
 * what is required to watch it, whether the viewer meets it, and the price where one applies.
 * - free:         anyone may watch;
 * - subscription: an active subscription to the creator (price/currency/interval of the creator's plan);
 * - ppv:          a one-off purchase (price/currency of the episode). No purchase records exist yet,
 *                 so ppv episodes are locked for every viewer.
 */
export const gatingContext = (e: EpisodeRecord, creator: CreatorRecord | undefined, viewer: Viewer) => {
  if (e.access === 'free')
    return {
      access: 'free' as const,
      is_locked: false,
      required_action: null,
      price: null,
      currency: null,
      billing_interval: null,
      creator_id: e.creator_id,
    };
  if (e.access === 'premium')
    return {
      access: 'subscription' as const,
      is_locked: !viewer.isSubscribed,
      required_action: viewer.isSubscribed ? null : ('subscribe' as const),
      price: creator?.plan.price ?? null,
      currency: creator?.plan.currency ?? null,
      billing_interval: creator?.plan.interval ?? null,
      creator_id: e.creator_id,
    };
  return {
    access: 'ppv' as const,
    is_locked: true,
    required_action: 'purchase' as const,
    price: e.price,
    currency: e.currency,
    billing_interval: null,
    creator_id: e.creator_id,
  };
};

/** Episode of a TV-variant season: full metadata, `is_locked`, `gating_context`; no stream URL when locked. */
export const tvEpisodeView = (e: EpisodeRecord, creator: CreatorRecord | undefined, viewer: Viewer) => {
  const gating = gatingContext(e, creator, viewer);
  return {
    ...episodeView(e),
    description: e.description,
    access: e.access,
    stream_url: gating.is_locked ? null : e.stream_url,
    is_locked: gating.is_locked,
    gating_context: gating,
  };
};

/** Seasons of a show with their episodes (TV variant). Seasons without episodes are kept, empty. */
export const tvSeasons = (
  show: ShowRecord,
  episodes: readonly EpisodeRecord[],
  creator: CreatorRecord | undefined,
  viewer: Viewer,
) =>
  [...show.seasons]
    .sort((a, b) => a.number - b.number)
    .map((season) => ({
      id: seasonId(show.id, season.number),
      number: season.number,
      title: season.title,
      episodes: episodes
        .filter((e) => e.season === season.number)
        .map((e) => tvEpisodeView(e, creator, viewer)),
    }));

/** Access tiers present among a show's episodes, in `free`, `premium`, `ppv` order. */
export const accessBadges = (episodes: readonly EpisodeRecord[]) =>
  (['free', 'premium', 'ppv'] as const).filter((tier) => episodes.some((e) => e.access === tier));

/** `GET /tv/v3/shows/{id}`: show detail with nested seasons of gated episodes. */
export const tvShowDetail = (
  show: ShowRecord,
  creator: CreatorRecord | undefined,
  episodes: readonly EpisodeRecord[],
  viewer: Viewer,
) => {
  const { episodes: _flat, ...detail } = showDetail(show, creator, episodes);
  return {
    ...detail,
    seasons_count: show.seasons.length,
    episodes_count: episodes.length,
    access_badges: accessBadges(episodes),
    seasons: tvSeasons(show, episodes, creator, viewer),
  };
};

/** One series of `/tv/v3/creators/{id}/series`. */
export const creatorSeriesItem = (
  show: ShowRecord,
  creator: CreatorRecord,
  episodes: readonly EpisodeRecord[],
  viewer: Viewer,
) => ({
  id: show.id,
  title: show.title,
  description: show.description,
  thumbnail_url: show.thumbnail_url,
  thumbnail_color: show.thumbnail_color,
  category: show.category,
  rating: show.rating,
  year: show.year,
  tags: show.tags,
  is_new: show.is_new,
  is_featured: show.is_featured,
  total_views: show.total_views,
  total_views_formatted: formatCount(show.total_views),
  channel_url: `/shows/${show.slug}`,
  seasons_count: show.seasons.length,
  episodes_count: episodes.length,
  access_badges: accessBadges(episodes),
  seasons: tvSeasons(show, episodes, creator, viewer),
});
