import { perContainer } from '../aws/local-hook.ts';
import type { CreatorRecord, ProgramRecord } from '../catalog/model.ts';
import { listProgramsOverlapping, listProgramsStartingAfter } from './program-repository.ts';
import {
  type CurrentAndNext,
  currentAndNext,
  currentProgramProgressView,
  nextProgramView,
  programDetailView,
  programView,
} from './program-view.ts';
import type { HeartbeatEpg, WatchEpg } from './schemas.ts';
import { formatDate, scheduleWindow, todayIn } from './time.ts';

/**
 * On air: the program on a channel now and next, and the EPG blocks of the watch response and the
 * heartbeat. Reads programs only (no creator): the watch and heartbeat handlers import this.
 */

const HOUR = 3_600_000;

/** A channel as the EPG needs it: the creator record carries it (every creator has one channel). */
export type Channel = { channel: Pick<CreatorRecord['channel'], 'channel_id'> };

export const programsIn = (channel: Channel, from: number, to: number): Promise<ProgramRecord[]> =>
  listProgramsOverlapping({ channelId: channel.channel.channel_id, from, to });

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

/** How long a container reuses a channel's programs for the live paths at most (`onAirReused`, `programsReused`). */
export const HEARTBEAT_EPG_REUSE_MS = 300_000;

const PROGRAMS_KNOWN_MAX = 1_000;
const programsKnown = /* @__PURE__ */ perContainer(
  () => new Map<string, { from: number; until: number; to: number; programs: ProgramRecord[] }>(),
);

/**
 * The longest "rest of today" any time zone can ask for: a local day is at most 26 hours
 * (Antarctica/Troll's last Sunday of October, +02:00 → +00:00; 25 hours where a zone leaves
 * daylight saving time by one hour), so every zone's day ends within this of any instant. Checked
 * against every zone Intl knows, 2026-2035 (docs/conventions.md "Tests at chosen instants").
 */
const LONGEST_LOCAL_DAY_MS = 26 * HOUR;

/**
 * `programsIn(channel, at, to)` as watch opens use it: a container reuses what it read of a
 * channel's programs for HEARTBEAT_EPG_REUSE_MS, keeping the programs still overlapping [at, to).
 * At a big event every open of a channel read the same schedule partition (`CHANNEL#<id>`): 33,333
 * opens a second at 10 million viewers would be 5.8 times what one partition serves
 * (docs/capacity.md); reused, it is one read per container per 5 minutes. A schedule change
 * reaches new viewers within 5 minutes, as heartbeats. The read reaches past the end of the
 * longest local day after the reuse ends, so no open in those 5 minutes asks for more, whatever
 * its time zone, however close to its midnight (a window that only just held `to` was read again
 * by every open in a day's last hour, and each wider zone read it again).
 */
const programsReused = async (channel: Channel, at: number, to: number): Promise<ProgramRecord[]> => {
  const channelId = channel.channel.channel_id;
  let known = programsKnown().get(channelId);
  if (!(known && at >= known.from && at < known.until && to <= known.to)) {
    const until = at + HEARTBEAT_EPG_REUSE_MS;
    const readTo = Math.max(to, until + LONGEST_LOCAL_DAY_MS);
    known = { from: at, until, to: readTo, programs: await programsIn(channel, at, readTo) };
    // The open reads before it knows the channel id is the creator's: callers name any id, so the
    // container keeps at most PROGRAMS_KNOWN_MAX channels.
    if (programsKnown().size >= PROGRAMS_KNOWN_MAX) programsKnown().clear();
    programsKnown().set(channelId, known);
  }
  return known.programs.filter((p) => Date.parse(p.end) > at && Date.parse(p.start) < to);
};

/**
 * The `epg` block of the watch response (spec 4.4): today's `date` in `timezone`, the
 * `current_program` (full object with `description`, or null) and `schedule`: today's programs
 * from the current one to the end of the day in `timezone` (at least the next hour). One Query,
 * or none when the container read the channel's programs in the last 5 minutes (`programsReused`).
 */
export const watchEpg = async (channel: Channel, timezone: string, now: Date): Promise<WatchEpg> => {
  const at = now.getTime();
  const date = todayIn(at, timezone);
  const day = scheduleWindow(date, timezone);
  const programs = await programsReused(channel, at, Math.max(day.end, at + HOUR));
  const { current } = currentAndNext(programs, at);
  return {
    date: formatDate(date),
    timezone,
    current_program: current ? programDetailView(current, timezone, at) : null,
    schedule: programs.map((p) => programView(p, timezone, at)),
  };
};

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
