import * as z from 'zod/mini';
import { RATING_IDS } from '../catalog/model.ts';
import { described, named, responseSchemas, responsesNotBundled } from '../schema/schema-meta.ts';
import {
  DATE_WINDOW_YEARS_AHEAD,
  idParam,
  inDateWindow,
  MAX_PAGE_SIZE,
  pageQuery,
  wholeNumberParam,
} from '../schema/validation.ts';
import { isValidTimeZone, parseClock, parseDate, timeZoneSpelling } from './time.ts';

/**
 * A `timezone` field: an IANA name Intl knows, `UTC` by default, echoed in Intl's spelling when it
 * differs only in case (`timeZoneSpelling`). The EPG routes and the watch open share it.
 */
export const timeZoneField = (description: string) =>
  described(
    z._default(
      z.string().check(
        z.refine(isValidTimeZone, {
          error: 'timezone must be an IANA time zone such as America/New_York or UTC',
        }),
        z.overwrite(timeZoneSpelling),
      ),
      'UTC',
    ),
    description,
    'America/New_York',
  );
const timezone = /* @__PURE__ */ (() =>
  timeZoneField('IANA time zone name the times are given in (and the day is read in)'))();
/**
 * A calendar day inside the date window (docs/conventions.md "Input bounds"), checked against the
 * receive time as `windowedDateTime` is: a day past the window can end in year 10000, whose ISO
 * key (`+010000-…`) sorts below the day's start and inverts the programs Query's bounds (a 500).
 */
const date = /* @__PURE__ */ (() =>
  z.string().check(
    z.refine(
      (v) => {
        const day = parseDate(v);
        return day !== undefined && inDateWindow(Date.UTC(day.year, day.month - 1, day.day), Date.now());
      },
      {
        error: `date must be a calendar date YYYY-MM-DD between 1970-01-01 and ${DATE_WINDOW_YEARS_AHEAD} years from now`,
      },
    ),
  ))();
const clockTime = (name: string) =>
  z
    .string()
    .check(z.refine((v) => parseClock(v) !== undefined, { error: `${name} must be HH:MM (24-hour)` }));
const limit = (fallback: number) =>
  described(
    z._default(
      wholeNumberParam(`limit must be a whole number between 1 and ${MAX_PAGE_SIZE}`, 1, MAX_PAGE_SIZE),
      fallback,
    ),
    `How many programs (default ${fallback})`,
    fallback,
  );

export const channelPath = /* @__PURE__ */ (() =>
  z.object({
    id: described(idParam, 'Creator id or slug (each creator has one channel)', 'cr_0001'),
  }))();

/** `GET /channels/{id}/epg`: the channel id itself. */
export const channelIdPath = /* @__PURE__ */ (() =>
  z.object({
    id: described(idParam, 'Channel id', 'ch_0001'),
  }))();

export const scheduleQuery = /* @__PURE__ */ (() =>
  z
    .object({
      date: described(
        z.optional(date),
        'Calendar day `YYYY-MM-DD` in `timezone` (default: today there), from 1970-01-01 to 10 years from now',
        '2026-03-08',
      ),
      timezone,
      from: described(
        z.optional(clockTime('from')),
        'Start of the window, `HH:MM` wall time in `timezone`',
        '18:00',
      ),
      to: described(
        z.optional(clockTime('to')),
        'End of the window, `HH:MM` wall time in `timezone` (after `from`)',
        '23:00',
      ),
    })
    .check(
      z.refine((q) => !q.from || !q.to || parseClock(q.from)! < parseClock(q.to)!, {
        error: 'from must be earlier than to',
        path: ['from'],
      }),
    ))();

export type ScheduleQuery = z.infer<typeof scheduleQuery>;

export const timezoneQuery = /* @__PURE__ */ (() => z.object({ timezone }))();
export const upcomingQuery = (fallback: number) => z.object({ timezone, limit: limit(fallback) });

export const guideQuery = /* @__PURE__ */ (() =>
  z.object({
    channel_id: described(z.optional(idParam), 'Only this channel (404 when unknown)', 'ch_0001'),
    date: described(
      z.optional(date),
      'Calendar day `YYYY-MM-DD` in `timezone`, from 1970-01-01 to 10 years from now; without it the grid starts at the current half hour',
      '2026-03-08',
    ),
    hours: described(
      z.optional(wholeNumberParam('hours must be 1 to 24', 1, 24)),
      'Hours of the grid, 1-24 (default: 3 from now, or the whole day with `date`)',
      3,
    ),
    timezone,
    ...pageQuery(20),
  }))();
export type GuideQuery = z.infer<typeof guideQuery>;

// ---- Responses -------------------------------------------------------------------------------

/**
 * The response schemas, built on the first call of the export below: only the OpenAPI document
 * and the tests call it (through the contracts' `responses`); Lambda bundles leave them out
 * (`responseSchemas`, shared/schema/schema-meta.ts).
 */
const buildResponses = () => {
  const int = (description: string, example: number) =>
    described(z.number().check(z.int()), description, example);
  const text = (description: string, example: string) => described(z.string(), description, example);
  const flag = (description: string, example: boolean) => described(z.boolean(), description, example);

  const programId = text('Program id', 'pg_0001_29549520');
  const programTitle = text('Title', 'Midnight Laughs: Episode 4');
  const channelId = text('Channel id', 'ch_0001');
  const channelName = text('Channel name', 'Jonas Vargas Live');
  const channelNumber = int('Channel number', 100);
  const clock12h = (of: string, example: string) =>
    text(`${of}, \`H:MM AM/PM\` wall time in the requested time zone`, example);
  const durationMinutes = int('Length in whole minutes', 300);
  const startsInMinutes = int('Whole minutes until it starts, rounded up', 120);
  const elapsedMinutes = int('Whole minutes since it started, rounded down', 180);
  const remainingMinutes = int('`duration_minutes` minus `elapsed_minutes`', 120);
  const progressPercent = int('Share of it elapsed, 0-99, rounded down', 60);
  const ratingId = described(z.enum(RATING_IDS), 'Content rating (TV parental guidelines)', 'TV-G');
  const dateField = text('Calendar day `YYYY-MM-DD` in `timezone`', '2026-03-08');
  const timezoneField = text('IANA time zone name the times are given in', 'America/New_York');

  const EpgTimeline = named(
    'EpgTimeline',
    z.object({
      start: clock12h('Start of the window', '12:00 AM'),
      end: clock12h('End of the window', '12:00 AM'),
      slot_interval_minutes: described(z.literal(30), 'Minutes per slot', 30),
      slots: described(
        z.array(z.string()),
        'One `H:MM AM/PM` label per 30 minutes of elapsed time (a 25-hour day repeats an hour)',
        ['12:00 AM', '12:30 AM', '1:00 AM'],
      ),
    }),
    'The time axis of a schedule window',
  );

  const programFields = {
    program_id: programId,
    title: programTitle,
    thumbnail_url: text('Image URL', 'https://cdn.example.com/vod/ep_0150_s3e04/thumb.jpg'),
    start_time: text(
      "Start, ISO 8601 with the time zone's UTC offset at that instant",
      '2026-03-08T08:00:00-04:00',
    ),
    end_time: text("End (exclusive), ISO 8601 with the time zone's UTC offset", '2026-03-08T13:00:00-04:00'),
    start_time_formatted: clock12h('Start', '8:00 AM'),
    end_time_formatted: clock12h('End', '1:00 PM'),
    duration_minutes: durationMinutes,
    is_past: flag('Ended before now', false),
    is_current: flag('On air now', true),
    is_upcoming: flag('Starts after now', false),
    elapsed_minutes: described(
      z.optional(elapsedMinutes),
      'While on air only: whole minutes since it started',
      180,
    ),
    remaining_minutes: described(
      z.optional(remainingMinutes),
      'While on air only: `duration_minutes` − `elapsed_minutes`',
      120,
    ),
    progress_percent: described(
      z.optional(progressPercent),
      'While on air only: share elapsed, 0-99, rounded down',
      60,
    ),
    starts_in_minutes: described(
      z.optional(startsInMinutes),
      'Upcoming only: whole minutes until it starts, rounded up (≥ 1)',
      120,
    ),
    content_type: described(
      z.nullable(z.enum(['show', 'episode'])),
      'What is broadcast: a show or one of its episodes; null for a program with no catalogue content',
      'episode',
    ),
    content_id: described(
      z.nullable(z.string()),
      'Id of the show or episode broadcast; null for a program with no catalogue content',
      'ep_0150_s3e04',
    ),
    rating: ratingId,
  };

  const EpgProgram = named(
    'EpgProgram',
    z.object(programFields),
    'A program of a channel (spec 2.2), times in the requested time zone. Exactly one of `is_past`, `is_current`, `is_upcoming` is true; progress fields only while on air, `starts_in_minutes` only when upcoming',
  );

  const { program_id, title, ...restOfProgram } = programFields;
  const EpgProgramDetail = named(
    'EpgProgramDetail',
    z.object({
      program_id,
      title,
      description: text('Synopsis', 'Season 3, episode 4 of Midnight Laughs.'),
      ...restOfProgram,
    }),
    'A program with its description: the program on air in the live player',
  );

  const EpgNextProgram = named(
    'EpgNextProgram',
    z.object({
      program_id: described(z.string(), 'Program id', 'pg_0001_29549820'),
      title: text('Title', 'Sketch Hour'),
      start_time_formatted: clock12h('Start', '1:00 PM'),
      duration_minutes: int('Length in whole minutes', 240),
      starts_in_minutes: startsInMinutes,
    }),
    'The program after the one on air, in short',
  );

  const EpgProgramProgress = named(
    'EpgProgramProgress',
    z.object({
      program_id: programId,
      title: programTitle,
      elapsed_minutes: elapsedMinutes,
      remaining_minutes: remainingMinutes,
      progress_percent: progressPercent,
    }),
    'The program on air with its progress (heartbeat)',
  );

  const liveViewerFields = {
    is_live: flag('The creator is streaming live now', true),
    watching_now: int('Viewers on the live stream now (0 when offline)', 15727),
    watching_now_formatted: text('Viewers now, abbreviated for display (1.2K, 3.4M)', '15.7K'),
  };

  const scheduleFields = {
    channel_id: channelId,
    channel_name: channelName,
    channel_number: channelNumber,
    date: dateField,
    timezone: timezoneField,
    timeline: EpgTimeline,
    schedule: described(
      z.array(EpgProgram),
      'Programs overlapping the window, in start order (the first may start before it, the last end after it)',
    ),
  };

  const ChannelSchedule = named(
    'ChannelSchedule',
    z.object(scheduleFields),
    "A channel's programs over a day (or a from-to window of it) in a time zone",
  );

  const ChannelEpg = named(
    'ChannelEpg',
    z.object({
      creator_id: text('The creator whose channel it is', 'cr_0001'),
      is_live: liveViewerFields.is_live,
      ...scheduleFields,
    }),
    "A channel's day schedule addressed by channel id, with its creator and live state",
  );

  const LiveEpgRow = named(
    'LiveEpgRow',
    z.object({
      program_id: programId,
      title: programTitle,
      start_time_formatted: clock12h('Start', '8:00 AM'),
      end_time_formatted: clock12h('End', '1:00 PM'),
      duration_minutes: durationMinutes,
      progress_percent: int('Share elapsed, 0-100 (100 once past, 0 before it starts), rounded down', 60),
      is_current: flag('On air now', true),
      rating: ratingId,
    }),
    "A row of the live player's compact guide",
  );

  const LiveEpg = named(
    'LiveEpg',
    z.object({
      channel_id: channelId,
      date: dateField,
      timezone: timezoneField,
      timeline: EpgTimeline,
      schedule: described(z.array(LiveEpgRow), 'Programs overlapping the window, in start order'),
    }),
    "The live player's compact day guide",
  );

  const nextProgram = described(z.nullable(EpgNextProgram), 'The next program; null when none is scheduled');

  const CurrentSchedule = named(
    'CurrentSchedule',
    z.object({
      channel_id: channelId,
      channel_name: channelName,
      ...liveViewerFields,
      current_program: described(z.nullable(EpgProgram), 'The program on air; null in a gap of the schedule'),
      next_program: nextProgram,
    }),
    'The program on air on a channel and the next one',
  );

  const LiveEpgCurrent = named(
    'LiveEpgCurrent',
    z.object({
      channel_id: channelId,
      ...liveViewerFields,
      current_program: described(
        z.nullable(EpgProgramDetail),
        'The program on air, with its description; null in a gap of the schedule',
      ),
      next_program: nextProgram,
    }),
    'The program on air (with description) and the next one, for the live player',
  );

  const upcomingPrograms = described(z.array(EpgProgram), 'Programs starting after now, in start order');

  const UpcomingPrograms = named(
    'UpcomingPrograms',
    z.object({ channel_id: channelId, channel_name: channelName, upcoming_programs: upcomingPrograms }),
    "A channel's next programs",
  );

  const LiveEpgNext = named(
    'LiveEpgNext',
    z.object({ channel_id: channelId, upcoming_programs: upcomingPrograms }),
    "A channel's next programs, for the live player",
  );

  const GuideChannel = named(
    'GuideChannel',
    z.object({
      channel_id: channelId,
      channel_name: channelName,
      channel_number: channelNumber,
      creator_id: text('The creator whose channel it is', 'cr_0001'),
      ...liveViewerFields,
      programs: described(z.array(EpgProgram), 'Programs overlapping the grid window, in start order'),
    }),
    'A channel row of the TV guide grid',
  );

  const GuideSchedule = named(
    'GuideSchedule',
    z.object({
      timezone: timezoneField,
      date: text('Calendar day of the window start in `timezone`, `YYYY-MM-DD`', '2026-03-08'),
      start_time: text("Window start, ISO 8601 with the time zone's UTC offset", '2026-03-08T11:00:00-04:00'),
      end_time: text(
        "Window end (exclusive), ISO 8601 with the time zone's UTC offset",
        '2026-03-08T14:00:00-04:00',
      ),
      timeline: EpgTimeline,
      channels: described(z.array(GuideChannel), 'Channels of this page, in channel-number order'),
    }),
    'The multi-channel TV guide grid over a window',
  );

  /** The `epg` block of the watch response (spec 4.4); the live domain's schemas embed it. */
  const WatchEpg = named(
    'WatchEpg',
    z.object({
      date: text('Today in `timezone`, `YYYY-MM-DD`', '2026-03-08'),
      timezone: timezoneField,
      current_program: described(
        z.nullable(EpgProgramDetail),
        'The program on air, with its description; null in a gap of the schedule',
      ),
      schedule: described(
        z.array(EpgProgram),
        'Programs from the one on air to the end of the day in `timezone` (at least the next hour)',
      ),
    }),
    "The channel's guide from now to the end of the day, for the watch response",
  );

  /** The `epg` block of the heartbeat (spec 4.4); the live domain's schemas embed it. */
  const HeartbeatEpg = named(
    'HeartbeatEpg',
    z.object({
      current_program: described(
        z.nullable(EpgProgramProgress),
        'The program on air with its progress; null in a gap of the schedule',
      ),
      next_program: nextProgram,
    }),
    'The program on air and the next one, for the heartbeat',
  );
  return {
    EpgTimeline,
    EpgProgram,
    EpgProgramDetail,
    EpgNextProgram,
    EpgProgramProgress,
    ChannelSchedule,
    ChannelEpg,
    LiveEpgRow,
    LiveEpg,
    CurrentSchedule,
    LiveEpgCurrent,
    UpcomingPrograms,
    LiveEpgNext,
    GuideChannel,
    GuideSchedule,
    WatchEpg,
    HeartbeatEpg,
  };
};
export const epgResponses =
  process.env.LAMBDA_BUNDLE_RESPONSES === 'none' ? responsesNotBundled : responseSchemas(buildResponses);
type Built = ReturnType<typeof buildResponses>;

export type EpgTimeline = z.infer<Built['EpgTimeline']>;
export type EpgProgram = z.infer<Built['EpgProgram']>;
export type EpgProgramDetail = z.infer<Built['EpgProgramDetail']>;
export type EpgNextProgram = z.infer<Built['EpgNextProgram']>;
export type EpgProgramProgress = z.infer<Built['EpgProgramProgress']>;
export type ChannelSchedule = z.infer<Built['ChannelSchedule']>;
export type ChannelEpg = z.infer<Built['ChannelEpg']>;
export type LiveEpgRow = z.infer<Built['LiveEpgRow']>;
export type LiveEpg = z.infer<Built['LiveEpg']>;
export type CurrentSchedule = z.infer<Built['CurrentSchedule']>;
export type LiveEpgCurrent = z.infer<Built['LiveEpgCurrent']>;
export type UpcomingPrograms = z.infer<Built['UpcomingPrograms']>;
export type LiveEpgNext = z.infer<Built['LiveEpgNext']>;
export type GuideChannel = z.infer<Built['GuideChannel']>;
export type GuideSchedule = z.infer<Built['GuideSchedule']>;
export type WatchEpg = z.infer<Built['WatchEpg']>;
export type HeartbeatEpg = z.infer<Built['HeartbeatEpg']>;
