import type { CreatorRecord } from '../catalog/model.ts';
import { getCreatorByChannel, requireCreator } from '../creators/creator-repository.ts';
import { NotFoundError } from '../errors/errors.ts';
import { formatCount } from '../format.ts';
import { type Channel, onAirNow, programsIn } from './on-air.ts';
import { listProgramsStartingAfter } from './program-repository.ts';
import { nextProgramView, programDetailView, programProgress, programView } from './program-view.ts';
import type {
  ChannelEpg,
  ChannelSchedule,
  CurrentSchedule,
  LiveEpg,
  LiveEpgCurrent,
  LiveEpgNext,
  ScheduleQuery,
  UpcomingPrograms,
} from './schemas.ts';
import {
  type CalendarDate,
  formatDate,
  parseClock,
  parseDate,
  scheduleWindow,
  timeline,
  todayIn,
} from './time.ts';

/** A creator's channel schedule: its day, what is on now and next, what is upcoming. */

/** A creator's live state as the schedules show it. */
export const liveViewers = (creator: CreatorRecord) => {
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
