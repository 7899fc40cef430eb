import { type ProgramRecord, programContent } from '../catalog/model.ts';
import type { EpgNextProgram, EpgProgram, EpgProgramDetail, EpgProgramProgress } from './schemas.ts';
import { format12h, isoInZone } from './time.ts';

const MINUTE = 60_000;

/** Where a program stands relative to an instant. */
export type ProgramState = 'past' | 'current' | 'upcoming';

/**
 * Where `p` stands at `now` (epoch ms): current on [start, end), past from `end` on, upcoming
 * before `start`. Exactly one state, so exactly one of the view's three flags is true.
 */
export const programState = (p: ProgramRecord, now: number): ProgramState => {
  const start = Date.parse(p.start);
  const end = Date.parse(p.end);
  return now >= end ? 'past' : now >= start ? 'current' : 'upcoming';
};

/** Whole minutes of a program (programs are minute-aligned; rounds otherwise). */
export const durationMinutes = (p: ProgramRecord): number =>
  Math.round((Date.parse(p.end) - Date.parse(p.start)) / MINUTE);

/** Progress of a program at `now` (works for any state: past → done, upcoming → nothing elapsed). */
export type ProgramProgress = Omit<EpgProgramProgress, 'program_id' | 'title'>;

/**
 * Elapsed/remaining whole minutes and percent of `p` at `now`, clamped to the program: elapsed
 * rounds down and remaining is the rest, so `elapsed + remaining = duration_minutes` always.
 */
export const programProgress = (p: ProgramRecord, now: number): ProgramProgress => {
  const start = Date.parse(p.start);
  const end = Date.parse(p.end);
  const duration = durationMinutes(p);
  const at = Math.min(Math.max(now, start), end);
  const elapsed = Math.min(duration, Math.floor((at - start) / MINUTE));
  return {
    elapsed_minutes: elapsed,
    remaining_minutes: duration - elapsed,
    progress_percent: Math.floor(((at - start) / (end - start)) * 100),
  };
};

/** Whole minutes from `now` until `p` starts, rounded up (0 once it has started). */
export const startsInMinutes = (p: ProgramRecord, now: number): number =>
  Math.max(0, Math.ceil((Date.parse(p.start) - now) / MINUTE));

/**
 * The EPG program object (spec 2.2) of `p` read in `zone` at `now` (epoch ms).
 * `elapsed_minutes`, `remaining_minutes`, `progress_percent` only while current;
 * `starts_in_minutes` only while upcoming. Optional fields are absent, never null.
 */
export const programView = (p: ProgramRecord, zone: string, now: number): EpgProgram => {
  const start = Date.parse(p.start);
  const end = Date.parse(p.end);
  const state = programState(p, now);
  return {
    program_id: p.program_id,
    title: p.title,
    thumbnail_url: p.thumbnail_url,
    start_time: isoInZone(start, zone),
    end_time: isoInZone(end, zone),
    start_time_formatted: format12h(start, zone),
    end_time_formatted: format12h(end, zone),
    duration_minutes: durationMinutes(p),
    is_past: state === 'past',
    is_current: state === 'current',
    is_upcoming: state === 'upcoming',
    ...(state === 'current' ? programProgress(p, now) : {}),
    ...(state === 'upcoming' ? { starts_in_minutes: startsInMinutes(p, now) } : {}),
    ...programContent(p),
    rating: p.rating,
  };
};

/**
 * `programView` with the program's `description` after its title: the current-program view of the
 * live EPG and the watch response's `current_program`.
 */
export const programDetailView = (p: ProgramRecord, zone: string, now: number): EpgProgramDetail => {
  const { program_id, title, ...rest } = programView(p, zone, now);
  return { program_id, title, description: p.description, ...rest };
};

/** The program on air and the one after it (either may be missing: a gap or the end of the data). */
export interface CurrentAndNext {
  current: ProgramRecord | undefined;
  next: ProgramRecord | undefined;
}

/**
 * The program on air at `now` and the next one to start after it, from one channel's programs
 * (any order). Reused by the live channel (watch `epg` block, heartbeat) and the TV creator detail.
 * Fetch at least [now, now + MAX_PROGRAM_MINUTES) so `next` is found when there is one.
 */
export const currentAndNext = (programs: readonly ProgramRecord[], now: number): CurrentAndNext => {
  const sorted = [...programs].sort((a, b) => Date.parse(a.start) - Date.parse(b.start));
  const current = sorted.find((p) => programState(p, now) === 'current');
  const next = sorted.find((p) => programState(p, now) === 'upcoming');
  return { current, next };
};

/**
 * The short `next_program` object of `/schedule/current`, `/live/epg/current` and the heartbeat:
 * `program_id`, `title`, `start_time_formatted` (in `zone`), `duration_minutes`, `starts_in_minutes`.
 */
export const nextProgramView = (p: ProgramRecord, zone: string, now: number): EpgNextProgram => ({
  program_id: p.program_id,
  title: p.title,
  start_time_formatted: format12h(Date.parse(p.start), zone),
  duration_minutes: durationMinutes(p),
  starts_in_minutes: startsInMinutes(p, now),
});

/**
 * The heartbeat's `current_program` (spec 4.4): `program_id`, `title`, `elapsed_minutes`,
 * `remaining_minutes`, `progress_percent`.
 */
export const currentProgramProgressView = (p: ProgramRecord, now: number): EpgProgramProgress => ({
  program_id: p.program_id,
  title: p.title,
  ...programProgress(p, now),
});
