/**
 * The report's period in a time zone (pure: the zone and every instant are arguments). A period
 * is whole days, `from` to `to` inclusive, each day from midnight to midnight in the zone.
 */

const DAY_MS = 86_400_000;

/** Throws a readable error for an unknown IANA zone name. */
export const checkZone = (zone: string): string => {
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: zone });
  } catch {
    throw new Error(`Unknown time zone ${zone} (an IANA name such as Europe/Paris or UTC)`);
  }
  return zone;
};

/** The zone's offset from UTC at `at` (ms; Europe/Paris in winter: +3,600,000). */
export const zoneOffsetMs = (zone: string, at: number): number => {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  const local = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  return local - (at - (((at % 1000) + 1000) % 1000));
};

/** Midnight starting `date` (YYYY-MM-DD) in `zone`, as epoch ms. */
export const startOfDay = (date: string, zone: string): number => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(Date.parse(`${date}T00:00:00Z`)))
    throw new Error(`Dates are YYYY-MM-DD, not ${date}`);
  const utc = Date.parse(`${date}T00:00:00Z`);
  const guess = utc - zoneOffsetMs(zone, utc);
  return utc - zoneOffsetMs(zone, guess);
};

/** `[fromMs, toMs)`: from midnight of `from` to midnight after `to`, in `zone`. */
export const periodOf = (from: string, to: string, zone: string): { fromMs: number; toMs: number } => {
  const fromMs = startOfDay(from, zone);
  const next = new Date(Date.parse(`${to}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);
  const toMs = startOfDay(next, zone);
  if (!(toMs > fromMs)) throw new Error(`--to (${to}) is before --from (${from})`);
  return { fromMs, toMs };
};

/** A bucket's start as people read it in `zone`: `Sun 22 Nov, 21:00`, or `Sun 22 Nov 2026` for days. */
export const formatBucket = (ms: number, zone: string, grain: string): string =>
  new Intl.DateTimeFormat('en-GB', {
    timeZone: zone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    ...(grain === 'day' || grain === 'total'
      ? { year: 'numeric' }
      : { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }),
  }).format(ms);

/**
 * A change of the zone's offset: at instant `at` (epoch ms) the offset goes from `before` to
 * `after` (ms; Europe/Paris on 2027-03-28: at 01:00Z, +3,600,000 to +7,200,000).
 */
export interface OffsetChange {
  at: number;
  before: number;
  after: number;
}

/**
 * The zone's offset changes in [fromMs, toMs), oldest first (a few a year; none for UTC or a zone
 * without daylight saving time): the offset read once a day, and each day it differs searched
 * to the millisecond. Zones change at most once a day.
 */
export const offsetChanges = (zone: string, fromMs: number, toMs: number): OffsetChange[] => {
  const changes: OffsetChange[] = [];
  let start = fromMs;
  let before = zoneOffsetMs(zone, start);
  while (start < toMs) {
    const end = Math.min(start + DAY_MS, toMs);
    const after = zoneOffsetMs(zone, end);
    if (after !== before) {
      // The first instant with the new offset lies in (lo, hi].
      let lo = start;
      let hi = end;
      while (hi - lo > 1) {
        const mid = Math.floor((lo + hi) / 2);
        if (zoneOffsetMs(zone, mid) === before) lo = mid;
        else hi = mid;
      }
      if (hi < toMs) changes.push({ at: hi, before, after });
    }
    start = end;
    before = after;
  }
  return changes;
};

/** The offset at instant `ts`: `offsetMs` (the period start's) moved by each change before it. */
export const offsetAt = (offsetMs: number, changes: readonly OffsetChange[], ts: number): number =>
  changes.findLast((c) => ts >= c.at)?.after ?? offsetMs;

/**
 * The offset of local wall time `wall` (epoch ms read as if UTC): a wall time before a change's
 * instant as read under the old offset is the old offset's; one repeated when clocks go back is
 * its first time's; one skipped when they go forward is the new offset's.
 */
export const offsetAtWall = (offsetMs: number, changes: readonly OffsetChange[], wall: number): number =>
  changes.findLast((c) => wall >= c.at + c.before)?.after ?? offsetMs;

/**
 * The starts of the buckets of `size` ms over [fromMs, toMs), aligned to the zone's local wall
 * time: midnights for days (23 or 25 hours apart across a change), local hours for hours. A
 * bucket's start is its first local wall time as an instant (`offsetAtWall`); a wall time the
 * clocks skip gives the same instant as the one before it and is dropped.
 */
export const bucketStarts = (
  fromMs: number,
  toMs: number,
  size: number,
  offsetMs: number,
  changes: readonly OffsetChange[] = [],
): number[] => {
  const starts: number[] = [];
  const last = toMs + offsetAt(offsetMs, changes, toMs);
  for (let wall = Math.floor((fromMs + offsetMs) / size) * size; wall < last; wall += size) {
    const start = wall - offsetAtWall(offsetMs, changes, wall);
    if (start < toMs && (starts.length === 0 || start > starts.at(-1)!)) starts.push(start);
  }
  return starts;
};
