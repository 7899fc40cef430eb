import { describe, expect, it } from 'vitest';
import { guideWindow } from '../../shared/epg/guide.ts';
import { formatDate, scheduleWindow, timeline, todayIn } from '../../shared/epg/time.ts';

/**
 * The EPG's "now" functions at every 15 minutes around the days a run at the wrong moment meets
 * (docs/conventions.md "Tests at chosen instants"): UTC year and month ends, Feb 28/29, and the
 * daylight-saving change days of New York, London and Lord Howe (30 minutes), in zones with odd
 * offsets or at the date line. test/epg/time.test.ts checks the same functions at random instants;
 * this grid makes sure the edges are always hit. The oracle is Intl's own date text (`en-CA`:
 * YYYY-MM-DD), not the module's readings.
 * `TIME_EDGES=all`: every zone Intl knows, around those days and each of its own offset changes
 * 2026-2035 (a long sweep, minutes: not for `npm test`).
 */
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const ALL = process.env.TIME_EDGES === 'all';
/** Each test's bound: the long sweep's first test takes ~2 minutes alone. */
const TIMEOUT = ALL ? 1_800_000 : undefined;
const ZONES = ALL
  ? Intl.supportedValuesOf('timeZone')
  : [
      'UTC',
      'America/New_York',
      'Europe/London',
      'Australia/Lord_Howe',
      'Asia/Kathmandu',
      'Pacific/Chatham',
      'Pacific/Kiritimati',
      'Pacific/Niue',
      'America/St_Johns',
    ];
/** UTC dates; each is swept from 14 h before its UTC start to 14 h after its end (every zone's version of the day). */
const DAYS = [
  '2026-12-31',
  '2027-01-01',
  '2027-01-31',
  '2027-02-28',
  '2028-02-29',
  '2027-06-30',
  '2027-03-14', // New York springs forward
  '2027-11-07', // New York falls back
  '2027-03-28', // London springs forward
  '2027-10-31', // London falls back
  '2027-04-04', // Lord Howe 02:00 → 01:30, Chatham 03:45 → 02:45
  '2027-10-03', // Lord Howe 02:00 → 02:30
];
const around = (day: string): number[] => {
  const start = Date.parse(`${day}T00:00:00Z`) - 14 * HOUR;
  return Array.from({ length: (52 * HOUR) / (15 * MINUTE) }, (_, i) => start + i * 15 * MINUTE);
};
/** The UTC dates on which `zone`'s offset changes, 2026-2035 (read every 6 hours). */
const changeDays = (zone: string): string[] => {
  const offsets = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' });
  const days = new Set<string>();
  let previous = '';
  for (let t = Date.UTC(2026, 0, 1); t < Date.UTC(2036, 0, 1); t += 6 * HOUR) {
    const offset = offsets.format(t).split(' ').at(-1)!; // `GMT+05:45` after the date
    if (previous && offset !== previous) days.add(new Date(t).toISOString().slice(0, 10));
    previous = offset;
  }
  return [...days];
};
const edges = [...new Set(DAYS.flatMap(around))];
/** Each zone with the instants it is checked at. */
const sweep = ZONES.map((zone) => ({
  zone,
  instants: ALL ? [...new Set([...edges, ...changeDays(zone).flatMap(around)])] : edges,
}));
/**
 * A local day's length: 23-25 hours (an hour's DST change; Lord Howe's 30 minutes inside that),
 * 22-26 in Antarctica/Troll (+00:00 ⇄ +02:00). shared/epg/on-air.ts's reuse reads 26 h ahead.
 */
const dayHours = (zone: string) => (zone === 'Antarctica/Troll' ? [22, 26] : [23, 25]);

const formatters = new Map<string, Intl.DateTimeFormat>();
const intl = (locale: string, zone: string, options: Intl.DateTimeFormatOptions) => {
  const key = `${locale} ${zone}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, { timeZone: zone, ...options });
    formatters.set(key, f);
  }
  return f;
};
/** The local date of `instant` in `zone` as Intl writes it. */
const intlDate = (instant: number, zone: string): string =>
  intl('en-CA', zone, { year: 'numeric', month: '2-digit', day: '2-digit' }).format(instant);
/** The local clock `HH:MM:SS` of `instant` in `zone` as Intl writes it. */
const localClock = (instant: number, zone: string): string =>
  intl('en-GB', zone, { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }).format(
    instant,
  );

describe(`the EPG's now functions every 15 minutes around ${DAYS.length} edge days${ALL ? ' and offset changes' : ''} in ${ZONES.length} zones`, () => {
  it(
    "today is Intl's local date, and its day is exactly the instants of that date (23-25 h; Troll 22-26)",
    () => {
      const wrong: string[] = [];
      for (const { zone, instants } of sweep)
        for (const t of instants) {
          const [shortest, longest] = dayHours(zone);
          const today = formatDate(todayIn(t, zone));
          const { start, end } = scheduleWindow(todayIn(t, zone), zone);
          const ok =
            today === intlDate(t, zone) &&
            start <= t &&
            t < end &&
            intlDate(start, zone) === today &&
            intlDate(start - 1, zone) !== today &&
            intlDate(end - 1, zone) === today &&
            intlDate(end, zone) !== today &&
            end - start >= shortest! * HOUR &&
            end - start <= longest! * HOUR &&
            timeline({ start, end }, zone).slots.length === (end - start) / (30 * MINUTE);
          if (!ok)
            wrong.push(
              `${zone} ${new Date(t).toISOString()}: ${today}, [${new Date(start).toISOString()}, ${new Date(end).toISOString()})`,
            );
        }
      expect(wrong).toEqual([]);
    },
    TIMEOUT,
  );

  it(
    'the guide without a date starts at the local half hour now is in, and spans its hours',
    () => {
      const wrong: string[] = [];
      for (const { zone, instants } of sweep)
        for (const t of instants)
          for (const at of [t, t + 7 * MINUTE + 30_000, t + 29 * MINUTE + 59_999]) {
            const { start, end } = guideWindow({ timezone: zone }, at);
            const clock = localClock(start, zone);
            if (
              !(
                start <= at &&
                at - start < 30 * MINUTE &&
                /:(00|30):00$/.test(clock) &&
                end - start === 3 * HOUR
              )
            )
              wrong.push(
                `${zone} ${new Date(at).toISOString()}: starts ${new Date(start).toISOString()} (${clock})`,
              );
          }
      expect(wrong).toEqual([]);
    },
    TIMEOUT,
  );

  it(
    "the guide of a date is that date's day, cut at its hours",
    () => {
      const wrong: string[] = [];
      for (const { zone, instants } of sweep)
        for (const t of instants.filter((_, i) => i % 8 === 0)) {
          const date = intlDate(t, zone);
          for (const hours of [undefined, 1, 24]) {
            const { start, end } = guideWindow({ timezone: zone, date, hours }, t);
            const day = scheduleWindow(todayIn(t, zone), zone);
            if (
              !(
                start === day.start && end === (hours ? Math.min(day.end, day.start + hours * HOUR) : day.end)
              )
            )
              wrong.push(
                `${zone} ${date} ${hours}: [${new Date(start).toISOString()}, ${new Date(end).toISOString()})`,
              );
          }
        }
      expect(wrong).toEqual([]);
    },
    TIMEOUT,
  );
});
