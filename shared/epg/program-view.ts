import type { ProgramRecord } from '../catalog/model.ts';
import { format12h, isoInZone } from './time.ts';

const MINUTE = 60_000;

/** Where a program stands relative to `now`: exactly one of past, current, upcoming. */
export const programState = (p: ProgramRecord, now: number): 'past' | 'current' | 'upcoming' => {
  const start = Date.parse(p.start);
  const end = Date.parse(p.end);
  return now >= end ? 'past' : now >= start ? 'current' : 'upcoming';
};

/**
 * The EPG program object (spec 2.2) of `p` in `zone` at `now`. `elapsed_minutes`,
 * `remaining_minutes` and `progress_percent` only while current; `starts_in_minutes` only while
 * upcoming; `description` only when asked (the current-program view of the live EPG).
 * Minutes are whole minutes: elapsed rounds down, remaining is the rest, so they add up to the duration.
 */
export const programView = (
  p: ProgramRecord,
  zone: string,
  now: number,
  options: { description?: boolean } = {},
) => {
  const start = Date.parse(p.start);
  const end = Date.parse(p.end);
  const duration = Math.round((end - start) / MINUTE);
  const state = programState(p, now);
  const view: Record<string, unknown> = {
    program_id: p.program_id,
    title: p.title,
    ...(options.description ? { description: p.description } : {}),
    thumbnail_url: p.thumbnail_url,
    start_time: isoInZone(start, zone),
    end_time: isoInZone(end, zone),
    start_time_formatted: format12h(start, zone),
    end_time_formatted: format12h(end, zone),
    duration_minutes: duration,
    is_past: state === 'past',
    is_current: state === 'current',
    is_upcoming: state === 'upcoming',
    content_type: p.content_type,
    content_id: p.content_id,
    rating: p.rating,
  };
  if (state === 'current') {
    const elapsed = Math.floor((now - start) / MINUTE);
    view.elapsed_minutes = elapsed;
    view.remaining_minutes = duration - elapsed;
    view.progress_percent = Math.min(100, Math.floor(((now - start) / (end - start)) * 100));
  }
  if (state === 'upcoming') view.starts_in_minutes = Math.ceil((start - now) / MINUTE);
  return view;
};

/** The program on air at `now` and the one after it, from programs sorted by start. */
export const currentAndNext = (programs: readonly ProgramRecord[], now: number) => {
  const index = programs.findIndex((p) => programState(p, now) === 'current');
  const current = index >= 0 ? programs[index] : undefined;
  const next = index >= 0 ? programs[index + 1] : programs.find((p) => programState(p, now) === 'upcoming');
  return { current, next };
};

/** The short `next_program` shape used by current/heartbeat views. */
export const nextProgramView = (p: ProgramRecord, zone: string, now: number) => ({
  program_id: p.program_id,
  title: p.title,
  start_time_formatted: format12h(Date.parse(p.start), zone),
  duration_minutes: Math.round((Date.parse(p.end) - Date.parse(p.start)) / MINUTE),
  starts_in_minutes: Math.max(0, Math.ceil((Date.parse(p.start) - now) / MINUTE)),
});
