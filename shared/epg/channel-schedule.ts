import { perContainer } from '../aws/local-hook.ts';
import type { CreatorRecord, ProgramRecord } from '../catalog/model.ts';
import { listChannelNumbers } from '../creators/creator-listings.ts';
import { getCreatorByChannel, getCreators, requireCreator } from '../creators/creator-repository.ts';
import { formatCount } from '../format.ts';
import { NotFoundError } from '../errors/errors.ts';
import { type Pagination, pagination } from '../pagination.ts';
import {
  listGuidePrograms,
  listProgramsOverlapping,
  listProgramsStartingAfter,
} from './program-repository.ts';
import {
  type CurrentAndNext,
  currentAndNext,
  currentProgramProgressView,
  nextProgramView,
  programDetailView,
  programProgress,
  programView,
} from './program-view.ts';
import type {
  ChannelEpg,
  ChannelSchedule,
  CurrentSchedule,
  GuideQuery,
  GuideSchedule,
  HeartbeatEpg,
  LiveEpg,
  LiveEpgCurrent,
  LiveEpgNext,
  ScheduleQuery,
  UpcomingPrograms,
  WatchEpg,
} from './schemas.ts';
import {
  type CalendarDate,
  formatDate,
  isoInZone,
  parseClock,
  parseDate,
  SLOT_MINUTES,
  scheduleWindow,
  timeline,
  todayIn,
  wallTime,
} from './time.ts';

const MINUTE = 60_000;
const HOUR = 3_600_000;

/** A channel as the EPG needs it: the creator record carries it (every creator has one channel). */
type Channel = { channel: Pick<CreatorRecord['channel'], 'channel_id'> };

const programsIn = (channel: Channel, from: number, to: number): Promise<ProgramRecord[]> =>
  listProgramsOverlapping({ channelId: channel.channel.channel_id, from, to });

const liveViewers = (creator: CreatorRecord) => {
  const watching = creator.live ? creator.watching_now : 0;
  return {
    is_live: creator.live !== null,
    watching_now: watching,
    watching_now_formatted: formatCount(watching),
  };
};

const dayOf = (q: ScheduleQuery, now: Date): CalendarDate =>
  q.date ? parseDate(q.date)! : todayIn(now.getTime(), q.timezone);

/** A day's (or its from–to window's) programs: those overlapping the window, with the window. */
const windowSchedule = async (channel: Channel, q: ScheduleQuery, now: Date) => {
  const date = dayOf(q, now);
  const window = scheduleWindow(
    date,
    q.timezone,
    q.from ? parseClock(q.from) : undefined,
    q.to ? parseClock(q.to) : undefined,
  );
  return { date: formatDate(date), window, programs: await programsIn(channel, window.start, window.end) };
};

const scheduleOf = async (creator: CreatorRecord, q: ScheduleQuery, now: Date): Promise<ChannelSchedule> => {
  const { date, window, programs } = await windowSchedule(creator, q, now);
  return {
    channel_id: creator.channel.channel_id,
    channel_name: creator.channel.channel_name,
    channel_number: creator.channel.channel_number,
    date,
    timezone: q.timezone,
    timeline: timeline(window, q.timezone),
    schedule: programs.map((p) => programView(p, q.timezone, now.getTime())),
  };
};

/** `GET /creators/:id/channel/schedule`: a day of full program objects with the timeline. */
export const channelSchedule = async (
  creatorIdOrSlug: string,
  q: ScheduleQuery,
  now: Date,
): Promise<ChannelSchedule> => scheduleOf(await requireCreator(creatorIdOrSlug), q, now);

/**
 * `GET /channels/:id/epg` (proposed in the spec; our design): the same day schedule as
 * `/creators/:id/channel/schedule`, addressed by channel id, plus `creator_id` and the live state
 * so the creator detail's channel guide needs one call. 404 for an unknown channel.
 */
export const channelEpg = async (channelId: string, q: ScheduleQuery, now: Date): Promise<ChannelEpg> => {
  const creator = await getCreatorByChannel(channelId);
  if (!creator) throw new NotFoundError('Channel not found');
  const { is_live } = liveViewers(creator);
  return { creator_id: creator.id, is_live, ...(await scheduleOf(creator, q, now)) };
};

/** `GET /creators/:id/channel/live/epg`: the compact day guide of the live player. */
export const liveEpg = async (creatorIdOrSlug: string, q: ScheduleQuery, now: Date): Promise<LiveEpg> => {
  const creator = await requireCreator(creatorIdOrSlug);
  const { date, window, programs } = await windowSchedule(creator, q, now);
  const at = now.getTime();
  return {
    channel_id: creator.channel.channel_id,
    date,
    timezone: q.timezone,
    timeline: timeline(window, q.timezone),
    schedule: programs.map((p) => {
      const view = programView(p, q.timezone, at);
      return {
        program_id: p.program_id,
        title: p.title,
        start_time_formatted: view.start_time_formatted,
        end_time_formatted: view.end_time_formatted,
        duration_minutes: view.duration_minutes,
        // Past programs are complete, upcoming ones not started: the bar of every row is meaningful.
        progress_percent: programProgress(p, at).progress_percent,
        is_current: view.is_current,
        rating: p.rating,
      };
    }),
  };
};

/**
 * The program on air at `now` on `channel` and the next one: two Queries in parallel (the program
 * overlapping [now, now + 1 ms), the first program starting after `now`). Exact whatever the gaps
 * in the schedule. Reused by the TV creator detail and the live channel (watch, heartbeat).
 */
export const onAirNow = async (channel: Channel, now: Date): Promise<CurrentAndNext> => {
  const at = now.getTime();
  const channelId = channel.channel.channel_id;
  const [current, next] = await Promise.all([
    listProgramsOverlapping({ channelId, from: at, to: at + 1 }),
    listProgramsStartingAfter({ channelId, after: at, limit: 1 }),
  ]);
  return currentAndNext([...current, ...next], at);
};

/**
 * The `epg` block of the watch response (spec 4.4): today's `date` in `timezone`, the
 * `current_program` (full object with `description`, or null) and `schedule`: today's programs
 * from the current one to the end of the day in `timezone` (at least the next hour). One Query.
 */
export const watchEpg = async (channel: Channel, timezone: string, now: Date): Promise<WatchEpg> => {
  const at = now.getTime();
  const date = todayIn(at, timezone);
  const day = scheduleWindow(date, timezone);
  const programs = await programsIn(channel, at, Math.max(day.end, at + HOUR));
  const { current } = currentAndNext(programs, at);
  return {
    date: formatDate(date),
    timezone,
    current_program: current ? programDetailView(current, timezone, at) : null,
    schedule: programs.map((p) => programView(p, timezone, at)),
  };
};

/** How long a heartbeat's container reuses a channel's on-air programs at most (`onAirReused`). */
export const HEARTBEAT_EPG_REUSE_MS = 300_000;
const onAirKnown = /* @__PURE__ */ perContainer(
  () => new Map<string, { from: number; until: number; programs: CurrentAndNext }>(),
);

/**
 * `onAirNow` as heartbeats use it: a container reuses a channel's programs until the current one
 * ends, the next one starts or HEARTBEAT_EPG_REUSE_MS pass, whichever comes first, so a viewer's
 * heartbeats read the schedule about once in ten beats (docs/cost.md) and a schedule change
 * reaches them within 5 minutes; a program starting or ending shows at once. Progress and "starts in" are still computed at each `now`.
 */
const onAirReused = async (channel: Channel, now: Date): Promise<CurrentAndNext> => {
  const at = now.getTime();
  const known = onAirKnown().get(channel.channel.channel_id);
  if (known && at >= known.from && at < known.until) return known.programs;
  const programs = await onAirNow(channel, now);
  const until = Math.min(
    at + HEARTBEAT_EPG_REUSE_MS,
    programs.current ? Date.parse(programs.current.end) : Number.POSITIVE_INFINITY,
    programs.next ? Date.parse(programs.next.start) : Number.POSITIVE_INFINITY,
  );
  onAirKnown().set(channel.channel.channel_id, { from: at, until, programs });
  return programs;
};

/**
 * The `epg` block of the heartbeat (spec 4.4): `current_program` (`program_id`, `title`,
 * `elapsed_minutes`, `remaining_minutes`, `progress_percent`) and `next_program` (`program_id`,
 * `title`, `starts_in_minutes`, `start_time_formatted` in `timezone`, `duration_minutes`); null
 * when there is none. Two Queries in parallel (`onAirNow`) when the container's copy is stale.
 */
export const heartbeatEpg = async (channel: Channel, timezone: string, now: Date): Promise<HeartbeatEpg> => {
  const { current, next } = await onAirReused(channel, now);
  return {
    current_program: current ? currentProgramProgressView(current, now.getTime()) : null,
    next_program: next ? nextProgramView(next, timezone, now.getTime()) : null,
  };
};

/** The creator's channel, its live viewers and the programs on air now and next (two Queries). */
const onAirOf = async (creatorIdOrSlug: string, timezone: string, now: Date) => {
  const creator = await requireCreator(creatorIdOrSlug);
  const { current, next } = await onAirNow(creator, now);
  return {
    creator,
    current,
    viewers: liveViewers(creator),
    next_program: next ? nextProgramView(next, timezone, now.getTime()) : null,
  };
};

/** `GET /creators/:id/channel/schedule/current`: the program on air and the next one. */
export const currentSchedule = async (
  creatorIdOrSlug: string,
  timezone: string,
  now: Date,
): Promise<CurrentSchedule> => {
  const { creator, current, viewers, next_program } = await onAirOf(creatorIdOrSlug, timezone, now);
  return {
    channel_id: creator.channel.channel_id,
    channel_name: creator.channel.channel_name,
    ...viewers,
    current_program: current ? programView(current, timezone, now.getTime()) : null,
    next_program,
  };
};

/** `GET /creators/:id/channel/live/epg/current`: as `currentSchedule`, the program with its description. */
export const liveEpgCurrent = async (
  creatorIdOrSlug: string,
  timezone: string,
  now: Date,
): Promise<LiveEpgCurrent> => {
  const { creator, current, viewers, next_program } = await onAirOf(creatorIdOrSlug, timezone, now);
  return {
    channel_id: creator.channel.channel_id,
    ...viewers,
    current_program: current ? programDetailView(current, timezone, now.getTime()) : null,
    next_program,
  };
};

/**
 * The next `limit` programs of a creator's channel (those starting after `now`; the one on air is
 * not upcoming). One Query.
 */
const upcomingOf = async (creatorIdOrSlug: string, timezone: string, limit: number, now: Date) => {
  const creator = await requireCreator(creatorIdOrSlug);
  const programs = await listProgramsStartingAfter({
    channelId: creator.channel.channel_id,
    after: now.getTime(),
    limit,
  });
  return { creator, upcoming: programs.map((p) => programView(p, timezone, now.getTime())) };
};

/** `GET /creators/:id/channel/schedule/upcoming` (default 5). */
export const upcomingSchedule = async (
  creatorIdOrSlug: string,
  timezone: string,
  limit: number,
  now: Date,
): Promise<UpcomingPrograms> => {
  const { creator, upcoming } = await upcomingOf(creatorIdOrSlug, timezone, limit, now);
  return {
    channel_id: creator.channel.channel_id,
    channel_name: creator.channel.channel_name,
    upcoming_programs: upcoming,
  };
};

/** `GET /creators/:id/channel/live/epg/next` (default 3): as `upcomingSchedule`, without the channel name. */
export const liveEpgNext = async (
  creatorIdOrSlug: string,
  timezone: string,
  limit: number,
  now: Date,
): Promise<LiveEpgNext> => {
  const { creator, upcoming } = await upcomingOf(creatorIdOrSlug, timezone, limit, now);
  return { channel_id: creator.channel.channel_id, upcoming_programs: upcoming };
};

/** Default guide window without `date` (hours from the current half hour). */
export const GUIDE_DEFAULT_HOURS = 3;

/**
 * The guide window: with `date`, that calendar day in `timezone` (its first `hours` when given);
 * without, from the start of the current 30-minute slot in `timezone` for `hours` (default 3).
 * Slots are aligned on the zone's wall clock, so :45 zones (Kathmandu) start at :00/:30 local.
 */
export const guideWindow = (q: Pick<GuideQuery, 'date' | 'hours' | 'timezone'>, now: number) => {
  if (q.date) {
    const day = scheduleWindow(parseDate(q.date)!, q.timezone);
    return { start: day.start, end: q.hours ? Math.min(day.end, day.start + q.hours * HOUR) : day.end };
  }
  const wall = wallTime(now, q.timezone);
  const intoSlot =
    (wall.minute % SLOT_MINUTES) * MINUTE + wall.second * 1000 + (((now % 1000) + 1000) % 1000);
  const start = now - intoSlot;
  return { start, end: start + (q.hours ?? GUIDE_DEFAULT_HOURS) * HOUR };
};

/**
 * `GET /tv/v3/guide/schedule` (response designed by us, spec 4.9): the multi-channel grid.
 * `data`: `timezone`, `date` (of the window start in the zone), `start_time`/`end_time` (ISO with
 * offset), `timeline`, `channels` (channel-number order; each with its facts and `programs`, full
 * EPG program objects overlapping the window). Paginated over channels (`meta_data`);
 * `channel_id` narrows to one channel (404 when unknown). The programs: a Query per 6-hour block
 * of the guide index, whatever the page size (shared/epg/program-repository.ts).
 */
export const guideSchedule = async (
  q: GuideQuery,
  now: Date,
): Promise<{ data: GuideSchedule; meta_data: Pagination }> => {
  const { start, end } = guideWindow(q, now.getTime());
  // Two round trips (issue 41): the page's channel numbers (or the one channel's id), then its
  // creators and programs at once.
  let creators: CreatorRecord[];
  let programs: Map<string, ProgramRecord[]>;
  let total: number;
  if (q.channel_id) {
    const channelId = q.channel_id;
    const [one, own] = await Promise.all([
      getCreatorByChannel(channelId),
      q.page === 1 ? listGuidePrograms([{ channelId, channelNumber: 0 }], start, end) : new Map(),
    ]);
    if (!one) throw new NotFoundError('Channel not found');
    creators = q.page === 1 ? [one] : [];
    programs = own;
    total = 1;
  } else {
    const page = await listChannelNumbers(q.page, q.limit);
    [creators, programs] = await Promise.all([
      getCreators(page.channels.map((c) => c.creatorId)),
      listGuidePrograms(page.channels, start, end),
    ]);
    total = page.total;
  }
  return {
    data: {
      timezone: q.timezone,
      date: formatDate(todayIn(start, q.timezone)),
      start_time: isoInZone(start, q.timezone),
      end_time: isoInZone(end, q.timezone),
      timeline: timeline({ start, end }, q.timezone),
      channels: creators.map((c) => ({
        channel_id: c.channel.channel_id,
        channel_name: c.channel.channel_name,
        channel_number: c.channel.channel_number,
        creator_id: c.id,
        ...liveViewers(c),
        programs: (programs.get(c.channel.channel_id) ?? []).map((p) =>
          programView(p, q.timezone, now.getTime()),
        ),
      })),
    },
    meta_data: pagination(total, q.page, q.limit),
  };
};
