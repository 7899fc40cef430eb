import * as z from 'zod/mini';
import { CATEGORY_IDS, RATING_IDS } from '../catalog/model.ts';
import { searchText } from '../creators/schemas.ts';
import { described, named, responseSchemas, responsesNotBundled } from '../schema/schema-meta.ts';
import { boolParam, enumParam, idParam, pageQuery } from '../schema/validation.ts';
import { Pagination } from '../pagination.ts';
import { totalRelation } from '../search/schemas.ts';
import { SHOW_SORTS } from '../catalog/model.ts';

export const SHOW_SECTIONS = ['new_releases', 'featured', 'all'] as const;
export type ShowSection = (typeof SHOW_SECTIONS)[number];

const category = /* @__PURE__ */ (() =>
  described(
    z._default(enumParam('category', ['all', ...CATEGORY_IDS]), 'all'),
    'Only shows of this category (`all`: every category)',
    'comedy',
  ))();
const rating = /* @__PURE__ */ (() =>
  described(z.optional(enumParam('rating', RATING_IDS)), 'Only shows with this content rating', 'TV-PG'))();
const isNew = /* @__PURE__ */ (() =>
  described(z.optional(boolParam('is_new')), 'Only new (`true`) or only not new (`false`) shows', 'true'))();
const isFeatured = /* @__PURE__ */ (() =>
  described(
    z.optional(boolParam('is_featured')),
    'Only featured (`true`) or only not featured (`false`) shows',
    'true',
  ))();
const sortDescription = 'Order: most total views, newest release first, or most views in the last 7 days';

export const listShowsQuery = /* @__PURE__ */ (() =>
  z.object({
    category,
    sort: described(z._default(enumParam('sort', SHOW_SORTS), 'most_popular'), sortDescription, 'trending'),
    section: described(
      z._default(enumParam('section', SHOW_SECTIONS), 'all'),
      '`new_releases` means is_new=true, `featured` is_featured=true (a contradicting flag matches nothing)',
      'featured',
    ),
    is_new: isNew,
    is_featured: isFeatured,
    rating,
    ...pageQuery(20),
  }))();
export type ListShowsQuery = z.infer<typeof listShowsQuery>;

/** `category` (default all) with `page`/`limit` (default 10). */
export const categoryPageQuery10 = /* @__PURE__ */ (() => z.object({ category, ...pageQuery(10) }))();
export type CategoryPageQuery = z.infer<typeof categoryPageQuery10>;

export const searchShowsQuery = /* @__PURE__ */ (() =>
  z.object({
    q: described(searchText, 'Words of the title (prefix matches and one typo per word tolerated)', 'office'),
    category,
    sort: described(
      z.optional(enumParam('sort', SHOW_SORTS)),
      `${sortDescription}; without it, best match first`,
      'newest',
    ),
    rating,
    is_new: isNew,
    is_featured: isFeatured,
    ...pageQuery(20),
  }))();
export type SearchShowsQuery = z.infer<typeof searchShowsQuery>;

export const showPath = /* @__PURE__ */ (() =>
  z.object({
    id: described(idParam, 'Show id or slug', 'sh_0001'),
  }))();

/** `page`/`limit` (default 10: each series carries every episode) for a creator's series. */
export const seriesQuery = /* @__PURE__ */ (() => z.object({ ...pageQuery(10) }))();

// ---- Responses -------------------------------------------------------------------------------

/**
 * The response schemas, built on the first call of the export below: only the OpenAPI document
 * and the tests call it (through the contracts' `responses`); Lambda bundles leave them out
 * (`responseSchemas`, shared/schema/schema-meta.ts).
 */
const buildResponses = () => {
  const int = (description: string, example: number) =>
    described(z.number().check(z.int()), description, example);
  const formatted = (of: string, example: string) =>
    described(z.string(), `${of}, abbreviated for display (1.2K, 3.4M)`, example);
  const text = (description: string, example: string) => described(z.string(), description, example);
  const flag = (description: string, example: boolean) => described(z.boolean(), description, example);

  const showId = text('Show id', 'sh_0001');
  const showTitle = text('Title', 'Office Sketches');
  const categoryId = described(z.enum(CATEGORY_IDS), 'Category id', 'comedy');
  const ratingId = described(z.enum(RATING_IDS), 'Content rating (TV parental guidelines)', 'TV-PG');
  const thumbnailUrl = text('Poster image URL', 'https://cdn.example.com/shows/sh_0001/poster.jpg');
  const thumbnailColor = text('Dominant poster colour, `#RRGGBB`, for a placeholder', '#FFB74D');
  const tags = described(z.array(z.string()), 'Tags', ['new', 'featured', 'sketch']);
  const isNewField = flag('Recently released', true);
  const isFeaturedField = flag('Editorially featured', true);
  const totalViews = int('Views of all its episodes', 130186);
  const totalViewsFormatted = formatted('Total views', '130.1K');
  const showChannelUrl = text("Path of the show's page", '/shows/office_sketches');
  const seasonCount = int('Number of seasons', 1);
  const description = text(
    'Synopsis',
    'Office Sketches: stand-up, sketches and unscripted nonsense, a few times a week. A Jonas Vargas original.',
  );

  /** Ids and values reused by other domains' schemas (home rows, creator detail, live). */
  const ShowFields = {
    showId,
    showTitle,
    categoryId,
    ratingId,
    thumbnailUrl,
    thumbnailColor,
    tags,
    description,
  } as const;

  const ShowCreatorRef = named(
    'ShowCreatorRef',
    z.object({
      id: text('Creator id', 'cr_0001'),
      name: text('Display name (empty when the creator is unknown)', 'Jonas Vargas'),
      is_verified: flag('Verified creator', true),
    }),
    'The creator of a show, as show items carry it',
  );

  /** The fields every show card shares (spec 2.2), without its key. */
  const showCardFields = {
    title: showTitle,
    thumbnail_url: thumbnailUrl,
    thumbnail_color: thumbnailColor,
    category: categoryId,
    creator: ShowCreatorRef,
    seasons: seasonCount,
    rating: ratingId,
    tags,
    is_new: isNewField,
    is_featured: isFeaturedField,
    total_views: totalViews,
    total_views_formatted: totalViewsFormatted,
    channel_url: showChannelUrl,
  };

  const ShowSummary = named(
    'ShowSummary',
    z.object({ id: showId, ...showCardFields }),
    'A show as `/shows` and `/shows/new-releases` list it (key `id`)',
  );

  const FeaturedShow = named(
    'FeaturedShow',
    z.object({ show_id: showId, ...showCardFields }),
    'A show as `/shows/featured` lists it (key `show_id`)',
  );

  const { thumbnail_color: _color, ...searchCardFields } = showCardFields;
  const ShowSearchHit = named(
    'ShowSearchHit',
    z.object({ id: showId, ...searchCardFields }),
    'A show as `/shows/search` lists it (key `id`, no `thumbnail_color`)',
  );

  const episodeId = text('Episode id', 'ep_0001_s1e01');
  const isLocked = flag(
    'The caller may not play it (premium without an active subscription to the creator, or pay-per-view)',
    false,
  );
  const streamUrl = described(
    z.nullable(z.string()),
    'HLS playlist URL; null when the episode is locked for the caller',
    'https://cdn.example.com/vod/ep_0001_s1e01/master.m3u8',
  );

  /** `is_locked` and `stream_url` of an episode for the caller (shared/shows/entitlement.ts). */
  const EpisodePlayback = z.object({ is_locked: isLocked, stream_url: streamUrl });

  const episodeFields = {
    episode_id: episodeId,
    season: int('Season number, from 1', 1),
    episode_number: int('Episode number within its season, from 1', 1),
    title: text('Title', 'Office Sketches: Episode 1'),
    duration_seconds: int('Length in seconds', 3483),
    duration_formatted: text('Length as `MM:SS`, or `H:MM:SS` from an hour', '58:03'),
    views: int('Views', 15439),
    views_formatted: formatted('Views', '15.4K'),
    is_free: flag('Plays for anyone (access `free`)', true),
    is_premium: flag('Needs a subscription or a purchase (access `premium` or `ppv`)', false),
    ...EpisodePlayback.shape,
    air_date: described(z.string(), 'First aired, ISO 8601 UTC', '2026-02-23T15:00:00.000Z'),
    thumbnail_url: text('Still image URL', 'https://cdn.example.com/vod/ep_0001_s1e01/thumb.jpg'),
  };

  const Episode = named(
    'Episode',
    z.object(episodeFields),
    'An episode (spec 2.2) for the caller: locked episodes carry `stream_url: null`',
  );

  const ShowDetailCreator = named(
    'ShowDetailCreator',
    z.object({
      ...ShowCreatorRef.shape,
      avatar_url: described(
        z.nullable(z.string()),
        'Avatar image URL; null when none was uploaded',
        'https://cdn.example.com/avatars/cr_0001.jpg',
      ),
      channel_url: text("Path of the creator's page", '/creators/jonas_vargas'),
    }),
    'The creator of a show in show detail',
  );

  const showDetailFields = {
    show_id: showId,
    ...showCardFields,
    description,
    creator: ShowDetailCreator,
  };

  const ShowDetail = named(
    'ShowDetail',
    z.object({
      ...showDetailFields,
      episodes: described(z.array(Episode), 'Every episode, by season then episode number'),
    }),
    'A show with its description, creator and episodes (`GET /shows/{id}`)',
  );

  const MostViewedEpisode = named(
    'MostViewedEpisode',
    z.object({
      episode_id: episodeId,
      show_id: showId,
      episode_number: episodeFields.episode_number,
      season: episodeFields.season,
      title: episodeFields.title,
      duration_formatted: episodeFields.duration_formatted,
      views: episodeFields.views,
      views_formatted: episodeFields.views_formatted,
      is_free: episodeFields.is_free,
      thumb_url: described(
        z.nullable(z.string()),
        'Still image URL; null when there is none',
        'https://cdn.example.com/vod/ep_0001_s1e01/thumb.jpg',
      ),
      ...EpisodePlayback.shape,
    }),
    'An episode of the most viewed list (spec 4.3)',
  );

  const EPISODE_ACCESS = ['free', 'premium', 'ppv'] as const;
  const episodeAccess = described(
    z.enum(EPISODE_ACCESS),
    '`free` plays for anyone, `premium` needs a subscription to the creator, `ppv` a purchase',
    'premium',
  );

  const GatingContext = named(
    'GatingContext',
    z.object({
      access: described(
        z.enum(['free', 'subscription', 'ppv']),
        'What watching requires: nothing, a subscription to the creator, or a one-off purchase',
        'subscription',
      ),
      is_locked: isLocked,
      required_action: described(
        z.nullable(z.enum(['subscribe', 'purchase'])),
        'What the caller must do to unlock it; null when it is not locked',
        'subscribe',
      ),
      price: described(
        z.nullable(z.number()),
        "Price of the creator's plan (subscription) or of the episode (ppv), in `currency`; null when free",
        2.99,
      ),
      currency: described(z.nullable(z.string()), 'ISO 4217 currency of `price`; null when free', 'USD'),
      billing_interval: described(
        z.nullable(z.enum(['month', 'year'])),
        "Billing interval of the creator's plan (subscription only; null otherwise)",
        'month',
      ),
      creator_id: text('The creator whose subscription unlocks it', 'cr_0001'),
    }),
    'What is required to watch an episode, and whether the caller meets it (docs/shows.md)',
  );

  const TvEpisode = named(
    'TvEpisode',
    z.object({
      ...episodeFields,
      description: text('Synopsis', 'Season 1, episode 1 of Office Sketches.'),
      access: episodeAccess,
      gating_context: GatingContext,
    }),
    'An episode of the TV show detail: full metadata, lock state and gating context',
  );

  const TvSeason = named(
    'TvSeason',
    z.object({
      id: text('Season id, `<show id>_s<number>`', 'sh_0001_s1'),
      number: int('Season number, from 1', 1),
      title: text('Title', 'Season 1'),
      episodes: described(z.array(TvEpisode), 'Its episodes by episode number (empty when it has none yet)'),
    }),
    'A season with its episodes (TV variant)',
  );

  const tvSeriesFields = {
    seasons_count: int('Number of seasons', 1),
    episodes_count: int('Number of episodes', 12),
    access_badges: described(
      z.array(z.enum(EPISODE_ACCESS)),
      'Access tiers present among its episodes, in `free`, `premium`, `ppv` order',
      ['free', 'premium'],
    ),
    seasons: described(z.array(TvSeason), 'Seasons in order, each with its episodes'),
  };

  const TvShowDetail = named(
    'TvShowDetail',
    z.object({ ...showDetailFields, ...tvSeriesFields }),
    'A show with seasons of gated episodes (`GET /tv/v3/shows/{id}`)',
  );

  const CreatorSeries = named(
    'CreatorSeries',
    z.object({
      id: showId,
      title: showTitle,
      description,
      thumbnail_url: thumbnailUrl,
      thumbnail_color: thumbnailColor,
      category: categoryId,
      rating: ratingId,
      year: int('Year of first release', 2026),
      tags,
      is_new: isNewField,
      is_featured: isFeaturedField,
      total_views: totalViews,
      total_views_formatted: totalViewsFormatted,
      channel_url: showChannelUrl,
      ...tvSeriesFields,
    }),
    "One of a creator's series with its seasons and episodes (`/tv/v3/creators/{id}/series`)",
  );

  const CreatorSeriesList = z.object({
    items: described(z.array(CreatorSeries), 'Series, most viewed first'),
  });

  const ShowCategory = named(
    'ShowCategory',
    z.object({
      id: categoryId,
      label: text('Display name', 'Comedy'),
      icon: text('Icon name', 'mic'),
      show_count: int('Shows in this category', 24),
    }),
    'A show category with its number of shows',
  );

  const ContentRating = named(
    'ContentRating',
    z.object({
      id: ratingId,
      label: text('Display name', 'Parental Guidance'),
      description: text(
        'What it means',
        'May contain material parents find unsuitable for younger children.',
      ),
    }),
    'A TV parental guidelines rating (spec 2.3)',
  );

  const TopCategoryShow = named(
    'TopCategoryShow',
    z.object({
      show_id: showId,
      title: showTitle,
      category: categoryId,
      seasons: seasonCount,
      rating: ratingId,
      is_new: isNewField,
      is_featured: isFeaturedField,
      total_views_formatted: totalViewsFormatted,
    }),
    'A show of a top category entry',
  );

  const TopCategory = named(
    'TopCategory',
    z.object({
      id: categoryId,
      label: text('Display name', 'Comedy'),
      show_count: int('Shows in this category', 24),
      creators_count: int('Creators in this category', 30),
      emoji: text('Emoji', '😂'),
      thump_url: described(
        z.nullable(z.string()),
        'Poster of its most popular show (spelled as in the spec)',
        'https://cdn.example.com/shows/sh_0001/poster.jpg',
      ),
      bg_color: text('Tile background colour, `#RRGGBB`', '#FFB020'),
      shows: described(z.array(TopCategoryShow), 'Its most popular shows (at most 5), most viewed first'),
    }),
    'A category with shows and its most popular ones (`/shows/categories-top`)',
  );

  // ---- Response envelopes of the show endpoints ----

  const ShowList = z.object({ shows: z.array(ShowSummary) });

  const ShowListMeta = z.object({
    ...Pagination.shape,
    filters_applied: described(
      z.object({
        category: described(z.enum(['all', ...CATEGORY_IDS]), 'Category filter', 'all'),
        sort: described(z.enum(SHOW_SORTS), 'Order', 'most_popular'),
        section: described(z.enum(SHOW_SECTIONS), 'Section', 'all'),
        rating: described(z.nullable(z.enum(RATING_IDS)), 'Rating filter; null when unset', null),
        is_new: described(z.nullable(z.boolean()), 'New filter; null when unset', null),
        is_featured: described(z.nullable(z.boolean()), 'Featured filter; null when unset', null),
      }),
      'The filters and order this page was made with (defaults filled in, unset filters null)',
    ),
  });

  const NewReleasesMeta = z.object({
    section: described(z.literal('new_releases'), 'Section id', 'new_releases'),
    section_title: described(z.literal('New Releases'), 'Section heading', 'New Releases'),
    section_subtitle: described(
      z.literal('The latest shows from your favourite creators'),
      'Section subheading',
      'The latest shows from your favourite creators',
    ),
    ...Pagination.shape,
  });

  const FeaturedShowList = z.object({
    section_title: described(z.literal('Featured Shows'), 'Section heading', 'Featured Shows'),
    section_subtitle: described(
      z.literal('Hand-picked series worth your time'),
      'Section subheading',
      'Hand-picked series worth your time',
    ),
    total: int('Featured shows across all pages', 12),
    shows: z.array(FeaturedShow),
  });

  const ShowSearchList = z.object({ shows: z.array(ShowSearchHit) });

  const ShowSearchMeta = z.object({
    query: text('The search text, trimmed', 'office'),
    type: described(z.literal('shows'), 'What was searched', 'shows'),
    ...Pagination.shape,
    total_relation: totalRelation,
  });

  const ShowCategoryList = z.object({ categories: z.array(ShowCategory) });

  const ContentRatingList = z.object({ ratings: z.array(ContentRating) });

  const MostViewedMeta = z.object({
    total_live: int('Episodes across all pages (the spec names it `total_live`; same as `total`)', 4037),
    ...Pagination.shape,
  });
  return {
    ShowFields,
    ShowCreatorRef,
    ShowSummary,
    FeaturedShow,
    ShowSearchHit,
    EpisodePlayback,
    Episode,
    ShowDetailCreator,
    ShowDetail,
    MostViewedEpisode,
    EPISODE_ACCESS,
    GatingContext,
    TvEpisode,
    TvSeason,
    TvShowDetail,
    CreatorSeries,
    CreatorSeriesList,
    ShowCategory,
    ContentRating,
    TopCategoryShow,
    TopCategory,
    ShowList,
    ShowListMeta,
    NewReleasesMeta,
    FeaturedShowList,
    ShowSearchList,
    ShowSearchMeta,
    ShowCategoryList,
    ContentRatingList,
    MostViewedMeta,
  };
};
export const showResponses =
  process.env.LAMBDA_BUNDLE_RESPONSES === 'none' ? responsesNotBundled : responseSchemas(buildResponses);
type Built = ReturnType<typeof buildResponses>;

export type ShowCreatorRef = z.infer<Built['ShowCreatorRef']>;
export type ShowSummary = z.infer<Built['ShowSummary']>;
export type FeaturedShow = z.infer<Built['FeaturedShow']>;
export type ShowSearchHit = z.infer<Built['ShowSearchHit']>;
export type EpisodePlayback = z.infer<Built['EpisodePlayback']>;
export type Episode = z.infer<Built['Episode']>;
export type ShowDetail = z.infer<Built['ShowDetail']>;
export type MostViewedEpisode = z.infer<Built['MostViewedEpisode']>;
export type GatingContext = z.infer<Built['GatingContext']>;
export type TvEpisode = z.infer<Built['TvEpisode']>;
export type TvSeason = z.infer<Built['TvSeason']>;
export type TvShowDetail = z.infer<Built['TvShowDetail']>;
export type CreatorSeries = z.infer<Built['CreatorSeries']>;
export type CreatorSeriesList = z.infer<Built['CreatorSeriesList']>;
export type ShowCategory = z.infer<Built['ShowCategory']>;
export type ContentRating = z.infer<Built['ContentRating']>;
export type TopCategoryShow = z.infer<Built['TopCategoryShow']>;
export type TopCategory = z.infer<Built['TopCategory']>;
export type ShowList = z.infer<Built['ShowList']>;
export type ShowListMeta = z.infer<Built['ShowListMeta']>;
export type NewReleasesMeta = z.infer<Built['NewReleasesMeta']>;
export type FeaturedShowList = z.infer<Built['FeaturedShowList']>;
export type ShowSearchList = z.infer<Built['ShowSearchList']>;
export type ShowSearchMeta = z.infer<Built['ShowSearchMeta']>;
export type ShowCategoryList = z.infer<Built['ShowCategoryList']>;
export type ContentRatingList = z.infer<Built['ContentRatingList']>;
export type MostViewedMeta = z.infer<Built['MostViewedMeta']>;
