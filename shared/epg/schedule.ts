import type { CreatorRecord, ProgramRecord } from '../catalog/model.ts';
import { getCreatorByChannel, listChannels, requireCreator } from '../creators/creator-repository.ts';
import { formatCount } from '../format.ts';
import { NotFoundError } from '../http/errors.ts';
import { pagination } from '../pagination.ts';
import { currentAndNext, nextProgramView, programState, programView } from './program-view.ts';
import { listProgramsOverlapping } from './program-repository.ts';
import {
  type CalendarDate,
  formatDate,
  isoInZone,
  parseClock,
  parseDate,
  scheduleWindow,
  timeline,
  todayIn,
} from './time.ts';

const HOUR = 3_600_000;

export interface ScheduleQuery {
  date?: string;
  timezone: string;
  from?: string;
  to?: string;
}

const programsOf = async (creator: CreatorRecord, from: number, to: number): Promise<ProgramRecord[]> =>
  (await listProgramsOverlapping([creator.channel.channel_id], from, to)).get(creator.channel.channel_id) ??
  [];

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

/** A day's (or a from–to window's) schedule of a channel: the programs overlapping it, with a timeline. */
const windowSchedule = async (creator: CreatorRecord, q: ScheduleQuery, now: Date) => {
  const date = dayOf(q, now);
  const window = scheduleWindow(
    date,
    q.timezone,
    q.from ? parseClock(q.from) : undefined,
    q.to ? parseClock(q.to) : undefined,
  );
  return { date: formatDate(date), window, programs: await programsOf(creator, window.start, window.end) };
};

/** `GET /creators/:id/channel/schedule` (and `/channels/:id/epg`): full program objects. */
export const channelSchedule = async (creatorIdOrSlug: string, q: ScheduleQuery, now: Date) =>
  scheduleOf(await requireCreator(creatorIdOrSlug), q, now);

const scheduleOf = async (creator: CreatorRecord, q: ScheduleQuery, now: Date) => {
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

/** `GET /channels/:id/epg`: the schedule of a channel named by its channel id. */
export const channelEpg = async (channelId: string, q: ScheduleQuery, now: Date) => {
  const creator = await getCreatorByChannel(channelId);
  if (!creator) throw new NotFoundError('Channel not found');
  return { creator_id: creator.id, ...(await scheduleOf(creator, q, now)) };
};

/** `GET /creators/:id/channel/live/epg`: the compact live-player guide. */
export const liveEpg = async (creatorIdOrSlug: string, q: ScheduleQuery, now: Date) => {
  const creator = await requireCreator(creatorIdOrSlug);
  const { date, window, programs } = await windowSchedule(creator, q, now);
  return {
    channel_id: creator.channel.channel_id,
    date,
    timezone: q.timezone,
    timeline: timeline(window, q.timezone),
    schedule: programs.map((p) => {
      const full = programView(p, q.timezone, now.getTime());
      const state = programState(p, now.getTime());
      return {
        program_id: p.program_id,
        title: p.title,
        start_time_formatted: full.start_time_formatted,
        end_time_formatted: full.end_time_formatted,
        duration_minutes: full.duration_minutes,
        progress_percent: state === 'past' ? 100 : state === 'upcoming' ? 0 : full.progress_percent,
        is_current: state === 'current',
        rating: p.rating,
      };
    }),
  };
};

/** The programs around `now`: current and next (the watch and heartbeat responses reuse this). */
export const onAirNow = async (creator: CreatorRecord, now: Date) =>
  currentAndNext(await programsOf(creator, now.getTime(), now.getTime() + 12 * HOUR), now.getTime());

/**
 * The `epg` block of the watch response (spec 4.4): today's date in `timezone`, the current
 * program and the rest of today's schedule from now on.
 */
export const watchEpg = async (creator: CreatorRecord, timezone: string, now: Date) => {
  const date = todayIn(now.getTime(), timezone);
  const window = scheduleWindow(date, timezone);
  const programs = await programsOf(creator, now.getTime(), Math.max(window.end, now.getTime() + HOUR));
  const { current } = currentAndNext(programs, now.getTime());
  return {
    date: formatDate(date),
    timezone,
    current_program: current ? programView(current, timezone, now.getTime(), { description: true }) : null,
    schedule: programs.map((p) => programView(p, timezone, now.getTime())),
  };
};

/** `GET /creators/:id/channel/schedule/current` and `/live/epg/current`. */
export const currentSchedule = async (
  creatorIdOrSlug: string,
  timezone: string,
  now: Date,
  variant: 'schedule' | 'live',
) => {
  const creator = await requireCreator(creatorIdOrSlug);
  const { current, next } = await onAirNow(creator, now);
  return {
    channel_id: creator.channel.channel_id,
    ...(variant === 'schedule' ? { channel_name: creator.channel.channel_name } : {}),
    ...liveViewers(creator),
    current_program: current
      ? programView(current, timezone, now.getTime(), { description: variant === 'live' })
      : null,
    next_program: next ? nextProgramView(next, timezone, now.getTime()) : null,
  };
};

/** `GET /creators/:id/channel/schedule/upcoming` and `/live/epg/next`: the next `limit` programs. */
export const upcomingSchedule = async (
  creatorIdOrSlug: string,
  timezone: string,
  limit: number,
  now: Date,
  variant: 'schedule' | 'live',
) => {
  const creator = await requireCreator(creatorIdOrSlug);
  // Programs last at least 30 minutes, so `limit` of them start within limit × 30 min (+ the current one).
  const horizon = now.getTime() + (limit + 1) * 0.5 * HOUR;
  const upcoming = (await programsOf(creator, now.getTime(), horizon))
    .filter((p) => programState(p, now.getTime()) === 'upcoming')
    .slice(0, limit)
    .map((p) => programView(p, timezone, now.getTime()));
  return {
    channel_id: creator.channel.channel_id,
    ...(variant === 'schedule' ? { channel_name: creator.channel.channel_name } : {}),
    upcoming_programs: upcoming,
  };
};

export interface GuideQuery {
  channel_id?: string;
  date?: string;
  hours?: number;
  timezone: string;
  page: number;
  limit: number;
}

/**
 * `GET /tv/v3/guide/schedule`: the multi-channel grid. Window: the whole `date` in `timezone`
 * (first `hours` of it when given); without `date`, from the current half hour for `hours`
 * (default 3). Channels in channel-number order, paginated; `channel_id` narrows to one.
 */
export const guideSchedule = async (q: GuideQuery, now: Date) => {
  let start: number;
  let end: number;
  if (q.date) {
    const day = scheduleWindow(parseDate(q.date)!, q.timezone);
    start = day.start;
    end = q.hours ? Math.min(day.end, start + q.hours * HOUR) : day.end;
  } else {
    start = Math.floor(now.getTime() / (HOUR / 2)) * (HOUR / 2);
    end = start + (q.hours ?? 3) * HOUR;
  }
  let creators: CreatorRecord[];
  let total: number;
  if (q.channel_id) {
    const one = await getCreatorByChannel(q.channel_id);
    if (!one) throw new NotFoundError('Channel not found');
    creators = q.page === 1 ? [one] : [];
    total = 1;
  } else {
    ({ creators, total } = await listChannels(q.page, q.limit));
  }
  const programs = await listProgramsOverlapping(
    creators.map((c) => c.channel.channel_id),
    start,
    end,
  );
  return {
    data: {
      timezone: q.timezone,
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
