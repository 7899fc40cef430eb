import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type CalendarDate,
  dayWindow,
  format12h,
  formatDate,
  instantOf,
  isoInZone,
  isValidTimeZone,
  offsetMinutes,
  parseClock,
  parseDate,
  scheduleWindow,
  timeline,
  timeZoneSpelling,
  todayIn,
  wallTime,
} from '../../shared/epg/time.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** The zones the issue names, plus a few with other rules (southern DST, midnight changes, no DST). */
const NAMED_ZONES = [
  'America/New_York',
  'Europe/London',
  'Australia/Lord_Howe',
  'Asia/Kathmandu',
  'Pacific/Chatham',
] as const;
const OTHER_ZONES = [
  'UTC',
  'America/Santiago',
  'America/Havana',
  'America/Sao_Paulo',
  'America/St_Johns',
  'Asia/Tehran',
  'Asia/Kolkata',
  'Australia/Adelaide',
  'Pacific/Kiritimati',
  'Pacific/Pago_Pago',
  'Africa/Casablanca',
];
const ALL_ZONES = Intl.supportedValuesOf('timeZone');

/** Zones: the named ones most of the time, any zone Intl knows otherwise. */
const zoneArb = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NAMED_ZONES) },
  { weight: 1, arbitrary: fc.constantFrom(...OTHER_ZONES) },
  { weight: 2, arbitrary: fc.constantFrom(...ALL_ZONES) },
);

/** DST change instants (UTC) of the named zones in 2026, where bugs live. */
const CHANGES = [
  Date.UTC(2026, 2, 8, 7), // New York spring forward 02:00 EST → 03:00 EDT
  Date.UTC(2026, 10, 1, 6), // New York fall back 02:00 EDT → 01:00 EST
  Date.UTC(2026, 2, 29, 1), // London 01:00 GMT → 02:00 BST
  Date.UTC(2026, 9, 25, 1), // London 02:00 BST → 01:00 GMT
  Date.UTC(2026, 3, 4, 15), // Lord Howe 02:00 → 01:30 (+11 → +10:30)
  Date.UTC(2026, 9, 3, 15, 30), // Lord Howe 02:00 → 02:30 (+10:30 → +11)
  Date.UTC(2026, 3, 4, 14), // Chatham 03:45 → 02:45 (+13:45 → +12:45)
  Date.UTC(2026, 8, 26, 14), // Chatham 02:45 → 03:45 (+12:45 → +13:45)
];

/** Instants 1990–2040, with a third of them within two days of a DST change. */
const instantArb = fc.oneof(
  fc.integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2040, 0, 1) }),
  fc
    .tuple(fc.constantFrom(...CHANGES), fc.integer({ min: -2 * 24 * HOUR, max: 2 * 24 * HOUR }))
    .map(([t, d]) => t + d),
);

/** Intl's own offset text (`GMT+05:45`, `GMT`) as minutes: an oracle independent of formatToParts fields. */
const intlOffset = (instant: number, zone: string): number => {
  const name = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' })
    .formatToParts(new Date(instant))
    .find((p) => p.type === 'timeZoneName')!.value;
  const m = /^GMT(?:([+-])(\d{2}):(\d{2}))?$/.exec(name);
  if (!m) throw new Error(`unexpected offset text ${name}`);
  return m[1] ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
};

/** Calendar dates 1995–2038, half of them within a day of a 2026 DST change of a named zone. */
const dateArb = fc
  .oneof(
    fc.integer({ min: Date.UTC(1995, 0, 1), max: Date.UTC(2038, 0, 1) }),
    fc.tuple(fc.constantFrom(...CHANGES), fc.integer({ min: -1, max: 1 })).map(([t, d]) => t + d * 24 * HOUR),
  )
  .map((t) => new Date(t))
  .map((d) => ({ year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() }));
const sameDate = (a: CalendarDate, b: CalendarDate) => formatDate(a) === formatDate(b);
const dateOf = (instant: number, zone: string) => formatDate(wallTime(instant, zone));

describe('zone spelling', () => {
  it("echoes Intl's spelling for a case variant, and an alias or unknown name as sent", () => {
    expect(timeZoneSpelling('europe/paris')).toBe('Europe/Paris');
    expect(timeZoneSpelling('AMERICA/NEW_YORK')).toBe('America/New_York');
    expect(timeZoneSpelling('utc')).toBe('UTC');
    expect(timeZoneSpelling('UTC')).toBe('UTC');
    // ICU resolves these to another name (Asia/Calcutta, Asia/Katmandu, UTC); the client's stays.
    expect(timeZoneSpelling('Asia/Kolkata')).toBe('Asia/Kolkata');
    expect(timeZoneSpelling('asia/kathmandu')).toBe('asia/kathmandu');
    expect(timeZoneSpelling('Etc/UTC')).toBe('Etc/UTC');
    expect(timeZoneSpelling('Mars/Olympus')).toBe('Mars/Olympus');
  });
});

describe('zone validation', () => {
  it('accepts IANA names in any case and refuses everything else', () => {
    for (const zone of [...NAMED_ZONES, 'UTC', 'america/new_york', 'Etc/GMT+5']) {
      expect(isValidTimeZone(zone)).toBe(true);
    }
    for (const zone of ['', 'Mars/Olympus', '+05:30', '-04:00', 'GMT+5:30', 'New York', 'x'.repeat(100)]) {
      expect(isValidTimeZone(zone)).toBe(false);
    }
  });
});

describe('offsets', () => {
  it('agree with Intl longOffset at any instant in any zone', () => {
    fc.assert(
      fc.property(instantArb, zoneArb, (t, zone) => {
        expect(offsetMinutes(t, zone)).toBe(intlOffset(t, zone));
      }),
      { numRuns: 400 },
    );
  });

  it('take only the values each named zone has', () => {
    const allowed: Record<string, number[]> = {
      'America/New_York': [-300, -240],
      'Europe/London': [0, 60],
      'Australia/Lord_Howe': [630, 660],
      'Asia/Kathmandu': [345],
      'Pacific/Chatham': [765, 825],
    };
    fc.assert(
      fc.property(instantArb, fc.constantFrom(...NAMED_ZONES), (t, zone) => {
        expect(allowed[zone]).toContain(offsetMinutes(t, zone));
      }),
      { numRuns: 300 },
    );
  });

  it('switch exactly at the change instants', () => {
    const cases: [number, string, string, string][] = [
      [CHANGES[0]!, 'America/New_York', '2026-03-08T01:59:00-05:00', '2026-03-08T03:00:00-04:00'],
      [CHANGES[1]!, 'America/New_York', '2026-11-01T01:59:00-04:00', '2026-11-01T01:00:00-05:00'],
      [CHANGES[2]!, 'Europe/London', '2026-03-29T00:59:00+00:00', '2026-03-29T02:00:00+01:00'],
      [CHANGES[3]!, 'Europe/London', '2026-10-25T01:59:00+01:00', '2026-10-25T01:00:00+00:00'],
      [CHANGES[4]!, 'Australia/Lord_Howe', '2026-04-05T01:59:00+11:00', '2026-04-05T01:30:00+10:30'],
      [CHANGES[5]!, 'Australia/Lord_Howe', '2026-10-04T01:59:00+10:30', '2026-10-04T02:30:00+11:00'],
      [CHANGES[6]!, 'Pacific/Chatham', '2026-04-05T03:44:00+13:45', '2026-04-05T02:45:00+12:45'],
      [CHANGES[7]!, 'Pacific/Chatham', '2026-09-27T02:44:00+12:45', '2026-09-27T03:45:00+13:45'],
    ];
    for (const [t, zone, before, after] of cases) {
      expect(isoInZone(t - MINUTE, zone)).toBe(before);
      expect(isoInZone(t, zone)).toBe(after);
    }
    expect(isoInZone(Date.UTC(2026, 0, 15, 6, 30), 'Asia/Kathmandu')).toBe('2026-01-15T12:15:00+05:45');
  });
});

describe('ISO text in a zone', () => {
  it('names the same instant (to the second) and carries the offset in force', () => {
    fc.assert(
      fc.property(instantArb, zoneArb, (t, zone) => {
        const text = isoInZone(t, zone);
        expect(text).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/);
        expect(Date.parse(text)).toBe(Math.floor(t / 1000) * 1000);
        const off = intlOffset(t, zone);
        const sign = off < 0 ? '-' : '+';
        const abs = Math.abs(off);
        const suffix = `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
        expect(text.endsWith(suffix)).toBe(true);
      }),
      { numRuns: 400 },
    );
  });
});

describe('12-hour text', () => {
  it('is H:MM AM/PM and reads back as the zone wall clock (cross-checked with Intl en-US)', () => {
    fc.assert(
      fc.property(instantArb, zoneArb, (t, zone) => {
        const text = format12h(t, zone);
        const m = /^(1[0-2]|[1-9]):([0-5]\d) (AM|PM)$/.exec(text);
        expect(m).not.toBeNull();
        const hour = (Number(m![1]) % 12) + (m![3] === 'PM' ? 12 : 0);
        const w = wallTime(t, zone);
        expect([hour, Number(m![2])]).toEqual([w.hour, w.minute]);
        const intl = new Date(t)
          .toLocaleTimeString('en-US', { timeZone: zone, hour: 'numeric', minute: '2-digit' })
          .replace(/\s/g, ' ');
        expect(text).toBe(intl);
      }),
      { numRuns: 300 },
    );
  });
});

describe('calendar days', () => {
  it('are 23/25 h on DST change days and 24 h around them (the named zones)', () => {
    const lengths: [string, string, number][] = [
      ['America/New_York', '2026-03-07', 24],
      ['America/New_York', '2026-03-08', 23],
      ['America/New_York', '2026-11-01', 25],
      ['America/New_York', '2026-11-02', 24],
      ['Europe/London', '2026-03-29', 23],
      ['Europe/London', '2026-10-25', 25],
      ['Europe/London', '2026-06-15', 24],
      ['Australia/Lord_Howe', '2026-04-05', 24.5],
      ['Australia/Lord_Howe', '2026-10-04', 23.5],
      ['Pacific/Chatham', '2026-04-05', 25],
      ['Pacific/Chatham', '2026-09-27', 23],
      ['Asia/Kathmandu', '2026-03-08', 24],
    ];
    for (const [zone, date, hours] of lengths) {
      const w = dayWindow(parseDate(date)!, zone);
      expect([zone, date, (w.end - w.start) / HOUR]).toEqual([zone, date, hours]);
      expect(isoInZone(w.start, zone).slice(0, 19)).toBe(`${date}T00:00:00`);
    }
  });

  it('hold exactly the instants whose local date is that day', () => {
    fc.assert(
      fc.property(
        dateArb,
        zoneArb,
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (d, zone, f) => {
          const { start, end } = dayWindow(d, zone);
          expect(end).toBeGreaterThanOrEqual(start);
          expect(end - start).toBeLessThanOrEqual(26 * HOUR);
          expect(dateOf(start - 1, zone) < formatDate(d)).toBe(true);
          expect(dateOf(end, zone) > formatDate(d)).toBe(true);
          if (end > start) {
            expect(dateOf(start, zone)).toBe(formatDate(d));
            expect(dateOf(end - 1, zone)).toBe(formatDate(d));
            expect(dateOf(start + Math.floor(f * (end - start)), zone)).toBe(formatDate(d));
          }
          // The length is 24 h corrected by the offset change over the day (no change: exactly 24 h),
          // when both midnights exist (a midnight in a gap, e.g. Havana, moves a bound to the gap's end).
          const atMidnight = (t: number) => wallTime(t, zone).hour === 0 && wallTime(t, zone).minute === 0;
          if (atMidnight(start) && atMidnight(end)) {
            expect(end - start).toBe(
              24 * HOUR - (offsetMinutes(end, zone) - offsetMinutes(start, zone)) * MINUTE,
            );
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('today is the local date of now', () => {
    fc.assert(
      fc.property(instantArb, zoneArb, (t, zone) => {
        const today = todayIn(t, zone);
        const intl = new Intl.DateTimeFormat('en-CA', {
          timeZone: zone,
          year: 'numeric',
          month: '2-digit',
          day: '2-digit',
        }).format(t);
        expect(formatDate(today)).toBe(intl);
        const { start, end } = dayWindow(today, zone);
        expect(start <= t && t < end).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe('wall times and from/to windows', () => {
  it('existing wall times map to an instant that reads back the same', () => {
    fc.assert(
      fc.property(instantArb, zoneArb, (t, zone) => {
        const w = wallTime(t, zone);
        const back = instantOf(w, zone);
        const read = wallTime(back, zone);
        expect([read.year, read.month, read.day, read.hour, read.minute]).toEqual([
          w.year,
          w.month,
          w.day,
          w.hour,
          w.minute,
        ]);
        // First occurrence: no earlier instant within the day reads the same minute.
        expect(back).toBeLessThanOrEqual(Math.floor(t / MINUTE) * MINUTE);
      }),
      { numRuns: 300 },
    );
  });

  it('a skipped wall time maps to the end of the gap; a repeated one to its first occurrence', () => {
    const ny = 'America/New_York';
    expect(isoInZone(instantOf({ year: 2026, month: 3, day: 8, hour: 2, minute: 30 }, ny), ny)).toBe(
      '2026-03-08T03:00:00-04:00',
    );
    expect(isoInZone(instantOf({ year: 2026, month: 11, day: 1, hour: 1, minute: 30 }, ny), ny)).toBe(
      '2026-11-01T01:30:00-04:00',
    );
    const lh = 'Australia/Lord_Howe';
    expect(isoInZone(instantOf({ year: 2026, month: 10, day: 4, hour: 2, minute: 15 }, lh), lh)).toBe(
      '2026-10-04T02:30:00+11:00',
    );
    expect(isoInZone(instantOf({ year: 2026, month: 4, day: 5, hour: 1, minute: 45 }, lh), lh)).toBe(
      '2026-04-05T01:45:00+11:00',
    );
    // 01:00–02:00 on New York's fall-back day covers both 1 AM hours: 2 hours of programs.
    const w = scheduleWindow(parseDate('2026-11-01')!, ny, 60, 120);
    expect((w.end - w.start) / HOUR).toBe(2);
    // 02:00–03:00 on its spring-forward day does not exist: an empty window.
    const gap = scheduleWindow(parseDate('2026-03-08')!, ny, 120, 180);
    expect(gap.end - gap.start).toBe(0);
  });

  it('from/to narrow the day: inside it, ordered, starting at `from` when that time exists', () => {
    const clock = fc.integer({ min: 0, max: 24 * 60 });
    fc.assert(
      fc.property(dateArb, zoneArb, clock, clock, (d, zone, a, b) => {
        const [from, to] = a < b ? [a, b] : [b, a + 1 > 24 * 60 ? b : a + 1];
        if (from >= to) return;
        const day = dayWindow(d, zone);
        const w = scheduleWindow(d, zone, from, to);
        expect(w.start).toBeGreaterThanOrEqual(day.start);
        expect(w.end).toBeLessThanOrEqual(day.end);
        expect(w.start).toBeLessThanOrEqual(w.end);
        const start = wallTime(w.start, zone);
        if (w.start > day.start && from < 24 * 60 && sameDate(start, d)) {
          const exists = wallTime(
            instantOf({ ...d, hour: Math.floor(from / 60), minute: from % 60 }, zone),
            zone,
          );
          if (exists.hour * 60 + exists.minute === from) expect(start.hour * 60 + start.minute).toBe(from);
        }
        if (to === 24 * 60) expect(w.end).toBe(day.end);
        if (from === 0) expect(w.start).toBe(day.start);
      }),
      { numRuns: 300 },
    );
  });

  it('parses HH:MM strictly', () => {
    expect(parseClock('00:00')).toBe(0);
    expect(parseClock('09:30')).toBe(570);
    expect(parseClock('24:00')).toBe(1440);
    for (const bad of ['9:30', '24:01', '25:00', '12:60', '12:5', 'noon', ''])
      expect(parseClock(bad)).toBeUndefined();
    expect(parseDate('2026-02-29')).toBeUndefined();
    expect(parseDate('2028-02-29')).toEqual({ year: 2028, month: 2, day: 29 });
  });
});

describe('timeline', () => {
  it('has one 30-minute slot per half hour of elapsed time, labelled in the zone', () => {
    const slots = (zone: string, date: string) => timeline(dayWindow(parseDate(date)!, zone), zone);
    expect(slots('America/New_York', '2026-03-08').slots).toHaveLength(46);
    expect(slots('America/New_York', '2026-11-01').slots).toHaveLength(50);
    expect(slots('America/New_York', '2026-11-01').slots.slice(2, 6)).toEqual([
      '1:00 AM',
      '1:30 AM',
      '1:00 AM',
      '1:30 AM',
    ]);
    expect(slots('America/New_York', '2026-03-08').slots.slice(3, 6)).toEqual([
      '1:30 AM',
      '3:00 AM',
      '3:30 AM',
    ]);
    expect(slots('Australia/Lord_Howe', '2026-10-04').slots).toHaveLength(47);
    expect(slots('Asia/Kathmandu', '2026-01-15')).toMatchObject({
      start: '12:00 AM',
      end: '12:00 AM',
      slot_interval_minutes: 30,
    });
    fc.assert(
      fc.property(dateArb, zoneArb, (d, zone) => {
        const w = dayWindow(d, zone);
        const t = timeline(w, zone);
        expect(t.slot_interval_minutes).toBe(30);
        expect(t.slots).toHaveLength(Math.ceil((w.end - w.start) / (30 * MINUTE)));
        t.slots.forEach((label, i) => {
          expect(label).toBe(format12h(w.start + i * 30 * MINUTE, zone));
        });
        expect(t.start).toBe(format12h(w.start, zone));
        expect(t.end).toBe(format12h(w.end, zone));
      }),
      { numRuns: 100 },
    );
  });
});

describe('UTC without Intl (issue 41: the first formatter costs a cold container ~18 ms of CPU)', () => {
  it("reads UTC from Date itself, as Intl reads it, and makes no formatter for the routes' default zone", async () => {
    const { vi } = await import('vitest');
    // Readings are cached per zone and instant: these instants are read nowhere else in this file.
    const read = vi.spyOn(Intl.DateTimeFormat.prototype, 'formatToParts');
    const made = vi.spyOn(Intl, 'DateTimeFormat');
    const instants = [
      7,
      Date.UTC(2026, 2, 29, 0, 59, 59),
      Date.UTC(2024, 1, 29, 23, 30, 1),
      1_795_000_000_123,
    ];
    const readings = instants.map((t) => wallTime(t, 'UTC'));
    expect(isValidTimeZone('UTC')).toBe(true);
    expect(made).not.toHaveBeenCalled();
    expect(read).not.toHaveBeenCalled();
    vi.restoreAllMocks();
    expect(readings).toEqual(instants.map((t) => wallTime(t, 'Etc/UTC')));
    expect(offsetMinutes(instants[1]!, 'UTC')).toBe(0);
  });
});
