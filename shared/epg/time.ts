/**
 * Time-zone math for the EPG, on Intl alone (Node 20 has no Temporal). Every function takes the
 * instants and the zone it works on; nothing reads the clock.
 *
 * Rules (docs/epg.md): a day is the zone's calendar day, [00:00, next 00:00) in that zone, so 23 or
 * 25 hours long on daylight-saving change days. A wall time that does not exist (inside a
 * spring-forward gap) maps to the first instant after the gap; a wall time that occurs twice
 * (fall-back overlap) maps to its first occurrence.
 */
import type { EpgTimeline } from './schemas.ts';

const MINUTE = 60_000;

const formatters = new Map<string, Intl.DateTimeFormat>();
const partsFormatter = (zone: string): Intl.DateTimeFormat => {
  let f = formatters.get(zone);
  if (!f) {
    // Bounded: zone names come from requests (case variants are distinct keys).
    if (formatters.size >= 1000) formatters.clear();
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(zone, f);
  }
  return f;
};

/** IANA names start with a letter: offsets such as `+05:30` (accepted by newer Intl only) are refused everywhere. */
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/;

/**
 * The default zone of every EPG route, read from Date itself: the first `Intl.DateTimeFormat` a
 * container makes costs ~18 ms of CPU on its first request (issue 41, docs/performance.md), and
 * UTC's readings need none. Other spellings of it (`utc`, `Etc/UTC`) go through Intl, as any zone.
 */
const UTC = 'UTC';

/** True for an IANA zone name Intl knows (e.g. `Asia/Kathmandu`, `UTC`); case-insensitive like Intl. */
export const isValidTimeZone = (zone: string): boolean => {
  if (zone === UTC) return true;
  if (!ZONE_NAME.test(zone)) return false;
  try {
    partsFormatter(zone);
    return true;
  } catch {
    return false;
  }
};

/**
 * The spelling a response echoes: Intl's when the name differs from it only in case
 * (`europe/paris` -> `Europe/Paris`), else the name as sent (ICU would turn the IANA name
 * `Asia/Kolkata` into its old alias `Asia/Calcutta`). An unknown name is returned as it came (the
 * schema refuses it).
 */
export const timeZoneSpelling = (zone: string): string => {
  if (zone === UTC || !isValidTimeZone(zone)) return zone;
  const resolved = partsFormatter(zone).resolvedOptions().timeZone;
  return resolved.toLowerCase() === zone.toLowerCase() ? resolved : zone;
};

export interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/**
 * Readings already made: a schedule reads the same instants several times (a program's end is the
 * next one's start; ISO text, offset and 12-hour text of one instant), and `formatToParts` is the
 * cost of an EPG request. Bounded like the formatters.
 */
const readings = new Map<string, Readonly<WallTime>>();

/** The wall-clock reading of `instant` in `zone`. */
export const wallTime = (instant: number, zone: string): Readonly<WallTime> => {
  const key = `${zone} ${instant}`;
  const known = readings.get(key);
  if (known) return known;
  if (readings.size >= 4096) readings.clear();
  const reading = Object.freeze(readParts(instant, zone));
  readings.set(key, reading);
  return reading;
};

const readParts = (instant: number, zone: string): WallTime => {
  if (zone === UTC) {
    const d = new Date(instant);
    return {
      year: d.getUTCFullYear(),
      month: d.getUTCMonth() + 1,
      day: d.getUTCDate(),
      hour: d.getUTCHours(),
      minute: d.getUTCMinutes(),
      second: d.getUTCSeconds(),
    };
  }
  const out: Record<string, number> = {};
  for (const part of partsFormatter(zone).formatToParts(new Date(instant))) {
    if (part.type !== 'literal') out[part.type] = Number(part.value);
  }
  return {
    year: out.year!,
    month: out.month!,
    day: out.day!,
    hour: out.hour! % 24,
    minute: out.minute!,
    second: out.second!,
  };
};

/** UTC offset of `zone` at `instant`, in minutes east of UTC (Kathmandu +345, New York −300/−240). */
export const offsetMinutes = (instant: number, zone: string): number =>
  offsetOf(instant, wallTime(instant, zone));

const offsetOf = (instant: number, w: WallTime): number => {
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return Math.round((asUtc - Math.floor(instant / 1000) * 1000) / MINUTE);
};

/** The instant a wall-clock time in `zone` names (gap → first instant after it; overlap → first occurrence). */
export const instantOf = (w: Omit<WallTime, 'second'>, zone: string): number => {
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute);
  // Candidates use the offsets in force a day either side; the earliest one that reads back right wins.
  const offsets = new Set([
    offsetMinutes(asUtc - 86_400_000, zone),
    offsetMinutes(asUtc, zone),
    offsetMinutes(asUtc + 86_400_000, zone),
  ]);
  const exact = [...offsets]
    .map((offset) => asUtc - offset * MINUTE)
    .filter((t) => {
      const back = wallTime(t, zone);
      return (
        back.year === w.year &&
        back.month === w.month &&
        back.day === w.day &&
        back.hour === w.hour &&
        back.minute === w.minute
      );
    })
    .sort((a, b) => a - b);
  if (exact.length > 0) return exact[0]!;
  // In a gap: the wall time is skipped; the first instant after the gap is where the clock jumps to.
  const before = asUtc - Math.max(...offsets) * MINUTE;
  const after = asUtc - Math.min(...offsets) * MINUTE;
  let lo = Math.min(before, after);
  let hi = Math.max(before, after);
  const target = asUtc;
  while (hi - lo > MINUTE) {
    const mid = lo + Math.floor((hi - lo) / 2 / MINUTE) * MINUTE;
    const m = wallTime(mid, zone);
    const read = Date.UTC(m.year, m.month - 1, m.day, m.hour, m.minute);
    if (read < target) lo = mid;
    else hi = mid;
  }
  return hi;
};

const pad = (n: number) => String(n).padStart(2, '0');

/** `+05:45`, `-04:00`, `+00:00`. */
export const formatOffset = (minutes: number): string => {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
};

/** ISO 8601 of `instant` as read in `zone`, with the zone's offset at that instant: `2026-03-08T01:30:00-05:00`. */
export const isoInZone = (instant: number, zone: string): string => {
  const w = wallTime(instant, zone);
  return `${w.year}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}${formatOffset(offsetOf(instant, w))}`;
};

/** 12-hour clock text `H:MM AM/PM` of `instant` in `zone`. */
export const format12h = (instant: number, zone: string): string => {
  const { hour, minute } = wallTime(instant, zone);
  return `${hour % 12 === 0 ? 12 : hour % 12}:${pad(minute)} ${hour < 12 ? 'AM' : 'PM'}`;
};

/** A calendar date `YYYY-MM-DD`. */
export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

/** `YYYY-MM-DD` → a real calendar date, or undefined (`2026-02-30` is undefined). */
export const parseDate = (text: string): CalendarDate | undefined => {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return undefined;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const check = new Date(Date.UTC(year, month - 1, day));
  return check.getUTCFullYear() === year && check.getUTCMonth() === month - 1 && check.getUTCDate() === day
    ? { year, month, day }
    : undefined;
};

/** A calendar date as `YYYY-MM-DD`. */
export const formatDate = (d: CalendarDate): string => `${d.year}-${pad(d.month)}-${pad(d.day)}`;

/** Today's date in `zone` at `now`. */
export const todayIn = (now: number, zone: string): CalendarDate => {
  const { year, month, day } = wallTime(now, zone);
  return { year, month, day };
};

const nextDay = (d: CalendarDate): CalendarDate => {
  const t = new Date(Date.UTC(d.year, d.month - 1, d.day + 1));
  return { year: t.getUTCFullYear(), month: t.getUTCMonth() + 1, day: t.getUTCDate() };
};

/** The zone's calendar day as UTC instants [start, end): 23, 24 or 25 hours (or other, for odd zones). */
export const dayWindow = (date: CalendarDate, zone: string): { start: number; end: number } => ({
  start: instantOf({ ...date, hour: 0, minute: 0 }, zone),
  end: instantOf({ ...nextDay(date), hour: 0, minute: 0 }, zone),
});

/** `HH:MM` (24-hour) → minutes after midnight, or undefined. `24:00` is the end of the day. */
export const parseClock = (text: string): number | undefined => {
  const m = /^([01]\d|2[0-4]):([0-5]\d)$/.exec(text);
  if (!m) return undefined;
  const minutes = Number(m[1]) * 60 + Number(m[2]);
  return minutes <= 24 * 60 ? minutes : undefined;
};

/**
 * The requested window within `date` in `zone`: the whole day, narrowed by `from`/`to` wall
 * times (minutes after midnight). `to` ≤ `from` is rejected by the caller's validation.
 */
export const scheduleWindow = (
  date: CalendarDate,
  zone: string,
  from?: number,
  to?: number,
): { start: number; end: number } => {
  const day = dayWindow(date, zone);
  const at = (minutes: number) =>
    minutes >= 24 * 60
      ? day.end
      : instantOf({ ...date, hour: Math.floor(minutes / 60), minute: minutes % 60 }, zone);
  return {
    start: from === undefined ? day.start : Math.max(day.start, at(from)),
    end: to === undefined ? day.end : Math.min(day.end, at(to)),
  };
};

/** EPG slot interval (spec 8). */
export const SLOT_MINUTES = 30;

/**
 * The timeline over [start, end): `start`/`end` as 12-hour text and one label per 30 minutes of
 * elapsed time (so a 25-hour day has 50 slots and shows its repeated hour).
 */
export const timeline = (window: { start: number; end: number }, zone: string): EpgTimeline => {
  const slots: string[] = [];
  for (let t = window.start; t < window.end; t += SLOT_MINUTES * MINUTE) slots.push(format12h(t, zone));
  return {
    start: format12h(window.start, zone),
    end: format12h(window.end, zone),
    slot_interval_minutes: SLOT_MINUTES,
    slots,
  };
};
