import * as z from 'zod/mini';
import { CATEGORY_IDS, RATING_IDS } from '../catalog/model.ts';
import { described, named, responseSchemas, responsesNotBundled } from '../schema/schema-meta.ts';
import { idParam, windowedDateTime } from '../schema/validation.ts';
import { displayText, withoutDuplicates } from '../schema/display-text.ts';
import { userMediaUrl } from '../catalog/media-urls.ts';
import { chargeCurrency, chargePrice } from '../catalog/price.ts';

/**
 * The creator studio's shows and episodes (issue 16): what a creator sends to publish, edit and
 * remove their own shows and episodes, and what they get back (the stored records with their
 * `version`). Editorial fields (`is_featured`, `is_new`, views) are not in any body: unknown
 * fields are dropped, as everywhere in the API, so a creator can never set them.
 */

export const MAX_SEASON = 99;
export const MAX_EPISODE_NUMBER = 999;
export const MAX_TAGS = 10;

const https = (what: string) => userMediaUrl(`${what} must be an https URL`);
const boundedInt = (min: number, max: number) => {
  const error = `must be a whole number between ${min} and ${max}`;
  return z.number({ error }).check(z.int({ error }), z.minimum(min, { error }), z.maximum(max, { error }));
};

const title = /* @__PURE__ */ (() =>
  described(
    displayText({
      name: 'title',
      min: 1,
      max: 120,
      errors: { type: 'is required', min: 'must be 1-120 characters', max: 'must be 1-120 characters' },
    }),
    'Title, 1-120 characters (trimmed)',
    'Late Night Loops',
  ))();
const description = /* @__PURE__ */ (() =>
  described(
    displayText({
      name: 'description',
      min: 0,
      max: 2000,
      multiline: true,
      errors: { type: 'is required', max: 'must be at most 2000 characters' },
    }),
    'Synopsis, at most 2000 characters (trimmed)',
    'Live looping sessions recorded after midnight.',
  ))();
const category = /* @__PURE__ */ (() =>
  described(
    z.enum(CATEGORY_IDS, { error: `must be one of: ${CATEGORY_IDS.join(', ')}` }),
    'Category id',
    'music',
  ))();
const rating = /* @__PURE__ */ (() =>
  described(
    z.enum(RATING_IDS, { error: `must be one of: ${RATING_IDS.join(', ')}` }),
    'Content rating (TV parental guidelines)',
    'TV-PG',
  ))();
const tags = /* @__PURE__ */ (() =>
  described(
    z
      .array(
        displayText({
          name: 'each tag',
          min: 1,
          max: 30,
          errors: {
            type: 'each tag must be text',
            min: 'each tag must be 1-30 characters',
            max: 'each tag must be 1-30 characters',
          },
        }),
        { error: 'must be a list of tags' },
      )
      .check(withoutDuplicates, z.maxLength(MAX_TAGS, { error: `must hold at most ${MAX_TAGS} tags` })),
    `Tags: at most ${MAX_TAGS}, each 1-30 characters`,
    ['looping', 'live'],
  ))();
const thumbnailUrl = /* @__PURE__ */ (() =>
  described(
    https('thumbnail_url'),
    "Poster image, an https URL of at most 2048 characters, not on the platform's media CDN (default: the CDN poster path of the show)",
    'https://images.example.net/late-night-loops/poster.jpg',
  ))();

const showFields = { title, description, category, rating };

/** `POST /studio/shows` body. */
export const createShowBody = /* @__PURE__ */ (() =>
  z.object({
    ...showFields,
    tags: z.optional(tags),
    thumbnail_url: z.optional(thumbnailUrl),
  }))();
export type CreateShowBody = z.infer<typeof createShowBody>;

const atLeastOneField = /* @__PURE__ */ (() =>
  z.superRefine((body: Record<string, unknown>, ctx) => {
    if (Object.values(body).every((value) => value === undefined))
      ctx.addIssue({ code: 'custom', path: [], message: 'must change at least one field' });
  }))();

/** `PATCH /studio/shows/{id}` body: any of the show's fields, at least one. */
export const updateShowBody = /* @__PURE__ */ (() =>
  z
    .object({
      title: z.optional(title),
      description: z.optional(description),
      category: z.optional(category),
      rating: z.optional(rating),
      tags: z.optional(tags),
      thumbnail_url: z.optional(thumbnailUrl),
    })
    .check(atLeastOneField))();
export type UpdateShowBody = z.infer<typeof updateShowBody>;

const season = /* @__PURE__ */ (() =>
  described(boundedInt(1, MAX_SEASON), `Season number, 1-${MAX_SEASON}`, 1))();
const episodeNumber = /* @__PURE__ */ (() =>
  described(
    boundedInt(1, MAX_EPISODE_NUMBER),
    `Episode number within its season, 1-${MAX_EPISODE_NUMBER}`,
    1,
  ))();
const episodeTitle = /* @__PURE__ */ described(
  title,
  'Title, 1-120 characters (trimmed)',
  'Loop 1: Midnight',
);
const episodeDescription = /* @__PURE__ */ (() =>
  described(
    displayText({
      name: 'description',
      min: 0,
      max: 2000,
      multiline: true,
      errors: { max: 'must be at most 2000 characters' },
    }),
    'Synopsis, at most 2000 characters (trimmed; default empty)',
    'The first session.',
  ))();
const durationSeconds = /* @__PURE__ */ (() =>
  described(boundedInt(1, 86_400), 'Length in seconds, 1-86400', 1800))();
const isFree = /* @__PURE__ */ (() =>
  described(
    z.boolean({ error: 'must be true or false' }),
    'Plays for anyone (access `free`); false: needs a subscription to the creator (access `premium`)',
    true,
  ))();
const isPremium = /* @__PURE__ */ (() =>
  described(
    z.boolean({ error: 'must be true or false' }),
    'The opposite of `is_free`, accepted for symmetry: a value that contradicts `is_free` is a 422',
    false,
  ))();
const airDate = /* @__PURE__ */ (() =>
  described(
    windowedDateTime('must be an ISO 8601 date-time with a time zone offset'),
    'First aired: ISO 8601 date-time with `Z` or an offset, stored in UTC (default: now); from 1970 to 10 years from now',
    '2026-02-23T15:00:00Z',
  ))();
const streamUrl = /* @__PURE__ */ (() =>
  described(
    https('stream_url'),
    "HLS playlist, an https URL of at most 2048 characters, not on the platform's media CDN or IVS (default: the CDN playlist path of the episode)",
    'https://video.example.net/loops/ep1/master.m3u8',
  ))();

const access = /* @__PURE__ */ (() =>
  described(
    z.enum(['free', 'premium', 'ppv'], { error: 'must be free, premium or ppv' }),
    "Who plays it: `free` anyone, `premium` the creator's subscribers, `ppv` a viewer who bought it (needs `price` and `currency`); must agree with `is_free` when both are sent",
    'ppv',
  ))();
const episodePrice = /* @__PURE__ */ chargePrice('Pay-per-view price (with `access: "ppv"` only)');
const episodeCurrency = /* @__PURE__ */ chargeCurrency();

/** What a body says about access: `is_free`, `is_premium` and `access` agree; `price` and `currency` come with `ppv` only. */
const premiumMatchesFree = /* @__PURE__ */ (() =>
  z.superRefine(
    (
      body: {
        is_free?: boolean | undefined;
        is_premium?: boolean | undefined;
        access?: 'free' | 'premium' | 'ppv' | undefined;
        price?: number | undefined;
        currency?: string | undefined;
      },
      ctx,
    ) => {
      if (body.is_free !== undefined && body.is_premium !== undefined && body.is_premium === body.is_free)
        ctx.addIssue({ code: 'custom', path: ['is_premium'], message: 'must be the opposite of is_free' });
      const isFree = body.is_free ?? (body.is_premium === undefined ? undefined : !body.is_premium);
      if (body.access !== undefined && isFree !== undefined && isFree !== (body.access === 'free'))
        ctx.addIssue({ code: 'custom', path: ['access'], message: 'must agree with is_free' });
      for (const field of ['price', 'currency'] as const) {
        if (body.access === 'ppv' && body[field] === undefined)
          ctx.addIssue({ code: 'custom', path: [field], message: 'is required when access is ppv' });
        if (body.access !== 'ppv' && body[field] !== undefined)
          ctx.addIssue({ code: 'custom', path: [field], message: 'is allowed only with access ppv' });
      }
    },
  ))();

/** `POST /studio/shows/{id}/episodes` body. */
export const createEpisodeBody = /* @__PURE__ */ (() =>
  z
    .object({
      season,
      episode_number: episodeNumber,
      title: episodeTitle,
      duration_seconds: durationSeconds,
      is_free: isFree,
      is_premium: z.optional(isPremium),
      access: z.optional(access),
      price: z.optional(episodePrice),
      currency: z.optional(episodeCurrency),
      description: z.optional(episodeDescription),
      air_date: z.optional(airDate),
      stream_url: z.optional(streamUrl),
    })
    .check(premiumMatchesFree))();
export type CreateEpisodeBody = z.infer<typeof createEpisodeBody>;

/**
 * `PATCH /studio/shows/{id}/episodes/{episode_id}` body: any field, at least one. `is_premium`
 * alone sets the access too (`is_premium: true` is `is_free: false`).
 */
export const updateEpisodeBody = /* @__PURE__ */ (() =>
  z
    .object({
      season: z.optional(season),
      episode_number: z.optional(episodeNumber),
      title: z.optional(episodeTitle),
      duration_seconds: z.optional(durationSeconds),
      is_free: z.optional(isFree),
      is_premium: z.optional(isPremium),
      access: z.optional(access),
      price: z.optional(episodePrice),
      currency: z.optional(episodeCurrency),
      description: z.optional(episodeDescription),
      air_date: z.optional(airDate),
      stream_url: z.optional(streamUrl),
    })
    .check(atLeastOneField, premiumMatchesFree))();
export type UpdateEpisodeBody = z.infer<typeof updateEpisodeBody>;

export const studioShowPath = /* @__PURE__ */ (() =>
  z.object({
    id: described(idParam, "Id of one of the caller's shows", 'sh_3f9a0c1b2d4e'),
  }))();
export const studioEpisodePath = /* @__PURE__ */ (() =>
  z.object({
    id: described(idParam, "Id of one of the caller's shows", 'sh_3f9a0c1b2d4e'),
    episode_id: described(idParam, 'Id of an episode of that show', 'ep_7b21e09c4a5f'),
  }))();

// ---- Responses -------------------------------------------------------------------------------

/**
 * The response schemas, built on the first call of the export below: only the OpenAPI document
 * and the tests call it (through the contracts' `responses`); Lambda bundles leave them out
 * (`responseSchemas`, shared/schema/schema-meta.ts).
 */
const buildResponses = () => {
  const int = (text: string, example: number) => described(z.number().check(z.int()), text, example);
  const text = (what: string, example: string) => described(z.string(), what, example);
  const flag = (what: string, example: boolean) => described(z.boolean(), what, example);
  const showVersion = int(
    "Version of the stored show: 1 when created, one more on every change, its episodes' writes included",
    1,
  );
  const episodeVersion = int(
    "Version of the stored episode: the show's version after the write that made it so (the show's version counts its episodes' writes), so it grows on every change and a new episode is never older than one deleted before it",
    2,
  );

  const StudioSeason = named(
    'StudioSeason',
    z.object({ number: int('Season number', 1), title: text('Season title', 'Season 1') }),
    'A season of a show: one per season number that has episodes',
  );

  const StudioShow = named(
    'StudioShow',
    z.object({
      show_id: text('Show id (`sh_` and 12 hex digits)', 'sh_3f9a0c1b2d4e'),
      slug: text(
        'URL slug: the slugified first title and `_` with 6 characters of the id; it never changes, so links keep working after a title edit',
        'late_night_loops_3f9a0c',
      ),
      channel_url: text("Path of the show's public page", '/shows/late_night_loops_3f9a0c'),
      creator_id: text('The creator (the caller)', 'acc_5d1c9e2b7a40'),
      title: text('Title', 'Late Night Loops'),
      description: text('Synopsis', 'Live looping sessions recorded after midnight.'),
      category: described(z.enum(CATEGORY_IDS), 'Category id', 'music'),
      rating: described(z.enum(RATING_IDS), 'Content rating', 'TV-PG'),
      tags: described(z.array(z.string()), 'Tags', ['looping', 'live']),
      thumbnail_url: text('Poster image URL', 'https://cdn.example.com/shows/sh_3f9a0c1b2d4e/poster.jpg'),
      thumbnail_color: text("Placeholder colour, `#RRGGBB` (the creator's avatar colour)", '#FFB74D'),
      is_new: flag('Recently released (set by the platform)', true),
      is_featured: flag('Editorially featured (set by operators only, never by the creator)', false),
      released_at: text('When it was published (ISO 8601, UTC)', '2026-11-24T04:00:00.000Z'),
      year: int('Year of release', 2026),
      starring: text("Starring (the creator's name)", 'Studio Maya'),
      subtitles: described(z.array(z.string()), 'Subtitle languages', []),
      total_views: int('Views of all its episodes', 0),
      views_7d: int('Views in the last 7 days', 0),
      seasons: described(z.array(StudioSeason), 'The seasons that have episodes, in order', [
        { number: 1, title: 'Season 1' },
      ]),
      version: showVersion,
    }),
    "A show of the caller's as stored, with its version",
  );

  const StudioEpisode = named(
    'StudioEpisode',
    z.object({
      episode_id: text('Episode id (`ep_` and 12 hex digits)', 'ep_7b21e09c4a5f'),
      show_id: text('Its show', 'sh_3f9a0c1b2d4e'),
      season: int('Season number', 1),
      episode_number: int('Episode number within its season', 1),
      title: text('Title', 'Loop 1: Midnight'),
      description: text('Synopsis (may be empty)', 'The first session.'),
      duration_seconds: int('Length in seconds', 1800),
      is_free: flag('Plays for anyone', true),
      is_premium: flag('Needs a subscription to the creator', false),
      access: described(
        z.enum(['free', 'premium', 'ppv']),
        'Access: `free`, `premium` (subscribers) or `ppv` (bought one by one at `price` `currency`)',
        'free',
      ),
      price: described(z.nullable(z.number()), 'Pay-per-view price in major units; null unless `ppv`', null),
      currency: described(z.nullable(z.string()), 'Currency of `price`; null unless `ppv`', null),
      air_date: text('First aired (ISO 8601, UTC)', '2026-02-23T15:00:00.000Z'),
      stream_url: text('HLS playlist URL', 'https://cdn.example.com/vod/ep_7b21e09c4a5f/master.m3u8'),
      thumbnail_url: text('Still image URL', 'https://cdn.example.com/vod/ep_7b21e09c4a5f/thumb.jpg'),
      views: int('Views', 0),
      version: episodeVersion,
    }),
    "An episode of one of the caller's shows as stored, with its version",
  );
  return { StudioSeason, StudioShow, StudioEpisode };
};
export const studioResponses =
  process.env.LAMBDA_BUNDLE_RESPONSES === 'none' ? responsesNotBundled : responseSchemas(buildResponses);
type Built = ReturnType<typeof buildResponses>;

export type StudioShow = z.infer<Built['StudioShow']>;
export type StudioEpisode = z.infer<Built['StudioEpisode']>;
