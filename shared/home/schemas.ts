import * as z from 'zod/mini';
import { CATEGORY_IDS, RATING_IDS } from '../catalog/model.ts';
import { described, named, responseSchemas, responsesNotBundled } from '../schema/schema-meta.ts';
import { pageQuery } from '../schema/validation.ts';
import { liveResponses } from '../watch/schemas.ts';

export const listLiveStreamsQuery = /* @__PURE__ */ (() => z.object({ ...pageQuery(10) }))();

// ---- Responses -------------------------------------------------------------------------------

/**
 * The response schemas, built on the first call of the export below: only the OpenAPI document
 * and the tests call it (through the contracts' `responses`); Lambda bundles leave them out
 * (`responseSchemas`, shared/schema/schema-meta.ts).
 */
const buildResponses = () => {
  const position = described(z.number().check(z.int()), 'Place on the screen, from 1 at the top', 1);
  const title = described(
    z.nullable(z.string()),
    'Heading of the section; null when it shows none',
    'Live Now',
  );
  const path = described(
    z.string(),
    'Request path (may carry a query string) of the endpoint that fills the section',
    '/home/live',
  );

  const HomeHeroSection = named(
    'HomeHeroSection',
    z.object({
      type: described(z.literal('hero'), 'Section type', 'hero'),
      position,
      title,
      path,
      autoplay: described(z.boolean(), 'The carousel advances by itself', true),
      autoplay_interval_seconds: described(
        z.number().check(z.int()),
        'Seconds per slide when autoplaying',
        6,
      ),
    }),
    'The hero carousel section, filled by `GET /home/hero`',
  );

  const HomeCategoryRowSection = named(
    'HomeCategoryRowSection',
    z.object({
      type: described(z.literal('category_row'), 'Section type', 'category_row'),
      position,
      title,
      path,
      category_id: described(z.enum(CATEGORY_IDS), 'Category of the shows in the row', 'comedy'),
    }),
    "A row of one category's shows",
  );

  /** Sections that are only a row filled from their `path`. */
  const HOME_ROW_TYPES = [
    'live_now',
    'most_viewed',
    'creators_row',
    /** Added per request for signed-in viewers, never stored. */
    'continue_watching',
  ] as const;

  const HomeRowSection = named(
    'HomeRowSection',
    z.object({
      type: described(
        z.enum(HOME_ROW_TYPES),
        'Row kind: live streams, most viewed episodes, featured creators, or (signed in only) continue watching',
        'live_now',
      ),
      position,
      title,
      path,
    }),
    'A row of items filled from its `path`',
  );

  const HomeSection = named(
    'HomeSection',
    z.discriminatedUnion('type', [HomeHeroSection, HomeCategoryRowSection, HomeRowSection]),
    'One section of the home screen (spec 4.1): render by `type`, fill from `path`',
  );

  const HeroSlide = named(
    'HeroSlide',
    z.object({
      show_id: described(z.string(), 'Show id', 'sh_0001'),
      title: described(z.string(), 'Show title', 'Office Sketches'),
      thumb_url: described(
        z.nullable(z.string()),
        'Poster image URL; null when the show has none',
        'https://cdn.example.com/shows/sh_0001/poster.jpg',
      ),
      is_locked: described(
        z.boolean(),
        'The episode needs a subscription or purchase (slides are for an anonymous viewer: only free episodes play)',
        false,
      ),
      stream_url: described(
        z.nullable(z.string()),
        "HLS playlist URL of the show's first episode; null when it is locked",
        'https://cdn.example.com/vod/ep_0001_s1e01/master.m3u8',
      ),
      category: described(z.enum(CATEGORY_IDS), 'Category id', 'comedy'),
      seasons: described(z.number().check(z.int()), 'Number of seasons', 1),
      rating: described(z.enum(RATING_IDS), 'TV parental guidelines rating', 'TV-PG'),
      is_free: described(z.boolean(), 'The first episode is free to watch', true),
      description: described(
        z.string(),
        'Show description',
        'Office Sketches: stand-up, sketches and unscripted nonsense, a few times a week. A Jonas Vargas original.',
      ),
      duration_formatted: described(z.string(), 'Length of the first episode, `MM:SS` or `H:MM:SS`', '58:03'),
    }),
    'A hero carousel slide: a featured show played from its first episode',
  );

  const HomeLiveStream = named(
    'HomeLiveStream',
    z.object({
      ...liveResponses().LiveStreamSummary.shape,
      creator_id: described(z.string(), 'Creator id of the stream', 'cr_0001'),
      creator_name: described(z.string(), 'Display name of the creator', 'Jonas Vargas'),
      channel_url: described(z.string(), "Path of the creator's page", '/creators/jonas_vargas'),
    }),
    'A live stream summary (spec 2.5) with the creator it belongs to',
  );
  return {
    HomeHeroSection,
    HomeCategoryRowSection,
    HOME_ROW_TYPES,
    HomeRowSection,
    HomeSection,
    HeroSlide,
    HomeLiveStream,
  };
};
export const homeResponses =
  process.env.LAMBDA_BUNDLE_RESPONSES === 'none' ? responsesNotBundled : responseSchemas(buildResponses);
type Built = ReturnType<typeof buildResponses>;

export type HomeSection = z.infer<Built['HomeSection']>;
export type HomeSectionType = HomeSection['type'];
export type HeroSlide = z.infer<Built['HeroSlide']>;
export type HomeLiveStream = z.infer<Built['HomeLiveStream']>;
