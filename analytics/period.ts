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
