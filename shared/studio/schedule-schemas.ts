import * as z from 'zod/mini';
import { CATEGORY_IDS, RATING_IDS, TIER_IDS } from '../catalog/model.ts';
import { described, named, responseSchemas, responsesNotBundled } from '../schema/schema-meta.ts';
import { DATE_WINDOW_YEARS_AHEAD, idParam, inDateWindow } from '../schema/validation.ts';
import { userMediaUrl } from '../catalog/media-urls.ts';
import { displayText } from '../schema/display-text.ts';

/**
 * The creator studio's profile and channel programs (issue 16): request bodies, then responses.
 * Times in requests are ISO 8601 with a UTC offset (`Z` or `±HH:MM`) on a whole minute; they are
 * stored and answered as UTC instants.
 */

const MINUTE = 60_000;

const trimmed = (name: string, min: number, max: number, multiline = false) =>
  displayText({
    name,
    min,
    max,
    multiline,
    errors: {
      type: 'must be a string',
      min: min === 1 ? 'must not be empty' : `must be at least ${min} characters`,
      max: `must be at most ${max} characters`,
    },
  });

// ---- Profile ---------------------------------------------------------------------------------

const creatorName = /* @__PURE__ */ (() =>
  described(trimmed('creator_name', 1, 80), 'Display name (trimmed, 1-80 characters)', 'Jonas Vargas'))();
const profileDescription = /* @__PURE__ */ (() =>
  described(
    trimmed('description', 0, 2000, true),
    'About the creator (trimmed, at most 2000 characters; empty clears it)',
    'Stand-up, sketches and unscripted nonsense, a few times a week.',
  ))();
const avatarUrl = /* @__PURE__ */ (() =>
  described(
    z.nullable(userMediaUrl('must be an https URL')),
    "Avatar image URL (https, at most 2048 characters, not on the platform's media CDN), or null to remove it",
    'https://images.example.net/avatars/jonas.jpg',
  ))();
const category = /* @__PURE__ */ (() =>
  described(
    z.enum(CATEGORY_IDS, { error: `must be one of: ${CATEGORY_IDS.join(', ')}` }),
    'Category id',
    'comedy',
  ))();

/** `PATCH /studio/profile` body: any of the fields, at least one. */
export const updateProfileBody = /* @__PURE__ */ (() =>
  z
    .object({
      creator_name: z.optional(creatorName),
      description: z.optional(profileDescription),
      avatar_url: z.optional(avatarUrl),
      category: z.optional(category),
    })
    .check(
      z.superRefine((body, ctx) => {
        if (Object.values(body).every((value) => value === undefined))
          ctx.addIssue({
            code: 'custom',
            path: [],
            message: 'send at least one of: creator_name, description, avatar_url, category',
          });
      }),
    ))();
export type UpdateProfileBody = z.infer<typeof updateProfileBody>;

// ---- Programs --------------------------------------------------------------------------------

/**
 * How far back a program may be placed: a day, so a program airing now (or one just missed) can
 * still be entered or corrected, but not one in 2020 (issue 34 item 8). Forward: the date window
 * every date shares (DATE_WINDOW_YEARS_AHEAD, shared/schema/validation.ts).
 */
export const PROGRAM_PAST_HOURS = 24;
const inProgramWindow = (ms: number, now: number) =>
  Number.isNaN(ms) || (ms >= now - PROGRAM_PAST_HOURS * 3_600_000 && inDateWindow(ms, now)); // NaN: the format check says so
const PROGRAM_WINDOW_ERROR = `must be from ${PROGRAM_PAST_HOURS} hours ago to ${DATE_WINDOW_YEARS_AHEAD} years from now`;

/** ISO 8601 with an offset (`Z` or `±HH:MM`), on a whole minute, within the program window. */
const instant = (example: string, description: string) =>
  described(
    z.iso
      .datetime({
        offset: true,
        error: 'must be an ISO 8601 date-time with a UTC offset, e.g. 2026-11-24T20:00:00+01:00',
      })
      .check(
        z.refine((v) => Date.parse(v) % MINUTE === 0, { error: 'must be on a whole minute (no seconds)' }),
        z.refine((v) => inProgramWindow(Date.parse(v), Date.now()), { error: PROGRAM_WINDOW_ERROR }),
      ),
    description,
    example,
  );
const startTime = /* @__PURE__ */ instant(
  '2026-11-24T20:00:00+01:00',
  'Start, ISO 8601 with a UTC offset (`Z` or `±HH:MM`; a time without one is refused), on a whole minute, from 24 hours ago to 10 years from now',
);
const endTime = /* @__PURE__ */ instant(
  '2026-11-24T21:30:00+01:00',
  'End (exclusive), same format as `start_time`; give this or `duration_minutes`',
);
const durationMinutes = /* @__PURE__ */ (() =>
  described(
    z
      .number({ error: 'must be a whole number of minutes' })
      .check(
        z.int({ error: 'must be a whole number of minutes' }),
        z.minimum(1, { error: 'must be at least 1' }),
      ),
    // The upper bound (MAX_PROGRAM_MINUTES, shared/epg/program-repository.ts) is checked by the write:
    // schemas are leaves and load no storage module.
    'Length in whole minutes, at least 1 (a program lasts at most 12 hours); give this or `end_time`',
    90,
  ))();
const programTitle = /* @__PURE__ */ (() =>
  described(trimmed('title', 1, 120), 'Title (trimmed, 1-120 characters)', 'Friday Night Laughs'))();
const programDescription = /* @__PURE__ */ (() =>
  described(
    trimmed('description', 0, 2000, true),
    'What the program is about (trimmed, at most 2000 characters)',
    'Two hours of stand-up from the club, live.',
  ))();
const rating = /* @__PURE__ */ (() =>
  described(
    z.enum(RATING_IDS, { error: `must be one of: ${RATING_IDS.join(', ')}` }),
    'Content rating (TV parental guidelines)',
    'TV-14',
  ))();
const CONTENT_TYPES = ['show', 'episode'] as const;
const contentType = /* @__PURE__ */ (() =>
  described(
    z.enum(CONTENT_TYPES, { error: 'must be one of: show, episode' }),
    'What is broadcast: one of your shows or one of your episodes; with `content_id`',
    'episode',
  ))();
const contentId = /* @__PURE__ */ (() =>
  described(
    z
      .string({ error: 'must be a string' })
      .check(
        z.minLength(1, { error: 'must not be empty' }),
        z.maxLength(128, { error: 'must be at most 128 characters' }),
        z.regex(/^[A-Za-z0-9_.:-]+$/, { error: 'must contain only letters, digits, _ . : -' }),
      ),
    'Id of your show (`sh_…`) or episode (`ep_…`) broadcast; with `content_type`',
    'ep_0001_s1e01',
  ))();

/** The checks both program bodies share: one of end_time/duration_minutes, content fields in pairs. */
const programChecks = (requireEnd: boolean) =>
  z.superRefine(
    (
      body: {
        end_time?: string | undefined;
        duration_minutes?: number | undefined;
        content_type?: string | null | undefined;
        content_id?: string | null | undefined;
      },
      ctx,
    ) => {
      const hasEnd = body.end_time !== undefined;
      const hasDuration = body.duration_minutes !== undefined;
      if (hasEnd && hasDuration)
        ctx.addIssue({
          code: 'custom',
          path: ['duration_minutes'],
          message: 'give end_time or duration_minutes, not both',
        });
      else if (requireEnd && !hasEnd && !hasDuration)
        ctx.addIssue({ code: 'custom', path: ['end_time'], message: 'give end_time or duration_minutes' });
      const typeGiven = body.content_type !== undefined && body.content_type !== null;
      const idGiven = body.content_id !== undefined && body.content_id !== null;
      if (typeGiven !== idGiven || (body.content_type === null) !== (body.content_id === null))
        ctx.addIssue({
          code: 'custom',
          path: [typeGiven ? 'content_id' : 'content_type'],
          message: 'content_type and content_id go together: give both or neither',
        });
    },
  );

/** `POST /studio/channel/programs` body. */
export const createProgramBody = /* @__PURE__ */ (() =>
  z
    .object({
      title: programTitle,
      description: z.optional(programDescription),
      start_time: startTime,
      end_time: z.optional(endTime),
      duration_minutes: z.optional(durationMinutes),
      rating,
      content_type: z.optional(contentType),
      content_id: z.optional(contentId),
    })
    .check(programChecks(true)))();
export type CreateProgramBody = z.infer<typeof createProgramBody>;

/**
 * `PATCH /studio/channel/programs/{program_id}` body: any field, at least one. `start_time` alone
 * moves the program (its length kept); `content_type` and `content_id` both null remove its content.
 */
export const updateProgramBody = /* @__PURE__ */ (() =>
  z
    .object({
      title: z.optional(programTitle),
      description: z.optional(programDescription),
      start_time: z.optional(startTime),
      end_time: z.optional(endTime),
      duration_minutes: z.optional(durationMinutes),
      rating: z.optional(rating),
      content_type: z.optional(z.nullable(contentType)),
      content_id: z.optional(z.nullable(contentId)),
    })
    .check(
      programChecks(false),
      z.superRefine((body, ctx) => {
        if (Object.values(body).every((value) => value === undefined))
          ctx.addIssue({ code: 'custom', path: [], message: 'send at least one field to change' });
      }),
    ))();
export type UpdateProgramBody = z.infer<typeof updateProgramBody>;

export const programPath = /* @__PURE__ */ (() =>
  z.object({
    program_id: described(idParam, 'Program id (`pg_…`)', 'pg_3f9a1c2b7d4e'),
  }))();

// ---- Responses -------------------------------------------------------------------------------

/**
 * The response schemas, built on the first call of the export below: only the OpenAPI document
 * and the tests call it (through the contracts' `responses`); Lambda bundles leave them out
 * (`responseSchemas`, shared/schema/schema-meta.ts).
 */
const buildResponses = () => {
  const text = (description: string, example: string) => described(z.string(), description, example);
  const int = (description: string, example: number) =>
    described(z.number().check(z.int()), description, example);

  const StudioProfile = named(
    'StudioProfile',
    z.object({
      creator_id: text('Creator id (the account id)', 'acc_3f9a1c2b7d4e5f60'),
      creator_name: text('Display name', 'Jonas Vargas'),
      handle: text('Public handle (the page slug)', 'jonas_vargas'),
      initials: text('Initials for an avatar placeholder (follow the name)', 'JV'),
      avatar_color: text('Avatar placeholder colour, `#RRGGBB`', '#7986CB'),
      avatar_url: described(
        z.nullable(z.string()),
        'Avatar image URL; null when none',
        'https://cdn.example.com/avatars/cr_0001.jpg',
      ),
      description: text(
        'About the creator',
        'Stand-up, sketches and unscripted nonsense, a few times a week.',
      ),
      category: described(z.enum(CATEGORY_IDS), 'Category id', 'comedy'),
      tier: described(z.enum(TIER_IDS), 'Tier id (set by operators)', 'silver'),
      is_verified: described(z.boolean(), 'Verified creator (set by operators)', false),
      is_featured: described(z.boolean(), 'Editorially featured (set by operators)', false),
      is_hot: described(z.boolean(), 'Editorially marked as hot (set by operators)', false),
      channel_id: text("The creator's channel id", 'ch_3f9a1c2b7d4e5f60'),
      version: int('Version of the profile: +1 on every change', 3),
    }),
    "A creator's own profile as the studio edits it",
  );

  const StudioProgram = named(
    'StudioProgram',
    z.object({
      program_id: text('Program id', 'pg_3f9a1c2b7d4e'),
      channel_id: text('Channel id (the caller’s channel)', 'ch_3f9a1c2b7d4e5f60'),
      creator_id: text('Creator id', 'acc_3f9a1c2b7d4e5f60'),
      title: text('Title', 'Friday Night Laughs'),
      description: text(
        'What the program is about (may be empty)',
        'Two hours of stand-up from the club, live.',
      ),
      thumbnail_url: text(
        "Image URL: the show's or episode's image, else a generated one",
        'https://cdn.example.com/vod/ep_0001_s1e01/thumb.jpg',
      ),
      start_time: text('Start (ISO 8601, UTC)', '2026-11-24T19:00:00.000Z'),
      end_time: text('End, exclusive (ISO 8601, UTC)', '2026-11-24T20:30:00.000Z'),
      duration_minutes: int('Length in whole minutes', 90),
      rating: described(z.enum(RATING_IDS), 'Content rating (TV parental guidelines)', 'TV-14'),
      content_type: described(
        z.nullable(z.enum(CONTENT_TYPES)),
        'What is broadcast: a show or an episode of the creator; null for a program with no catalogue content',
        'episode',
      ),
      content_id: described(
        z.nullable(z.string()),
        'Id of the show or episode broadcast; null for a program with no catalogue content',
        'ep_0001_s1e01',
      ),
      version: int('Version of the program: 1 when created, +1 on every change', 1),
    }),
    "A program of the caller's channel as the studio stores it",
  );
  return { StudioProfile, StudioProgram };
};
export const scheduleResponses =
  process.env.LAMBDA_BUNDLE_RESPONSES === 'none' ? responsesNotBundled : responseSchemas(buildResponses);
type Built = ReturnType<typeof buildResponses>;

export type StudioProfile = z.infer<Built['StudioProfile']>;
export type StudioProgram = z.infer<Built['StudioProgram']>;
