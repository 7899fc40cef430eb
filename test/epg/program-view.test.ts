import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ProgramRecord } from '../../shared/catalog/model.ts';
import { MAX_PROGRAM_MINUTES, programItems, programKey } from '../../shared/epg/program-repository.ts';
import {
  currentAndNext,
  currentProgramProgressView,
  nextProgramView,
  programState,
  programDetailView,
  programView,
} from '../../shared/epg/program-view.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const ZONES = [
  'America/New_York',
  'Europe/London',
  'Australia/Lord_Howe',
  'Asia/Kathmandu',
  'Pacific/Chatham',
  'UTC',
  'America/St_Johns',
] as const;

/** Schedules start around the 2026 DST changes of New York, London, Lord Howe and Chatham. */
const ANCHORS = [
  Date.UTC(2026, 2, 8, 7),
  Date.UTC(2026, 10, 1, 6),
  Date.UTC(2026, 2, 29, 1),
  Date.UTC(2026, 9, 25, 1),
  Date.UTC(2026, 3, 4, 15),
  Date.UTC(2026, 9, 3, 15, 30),
  Date.UTC(2026, 3, 4, 14),
  Date.UTC(2026, 8, 26, 14),
  Date.UTC(2026, 5, 15, 12),
];

const program = (i: number, start: number, end: number): ProgramRecord => ({
  program_id: `pg_${i}`,
  creator_id: 'cr_0001',
  channel_id: 'ch_0001',
  title: `Program ${i}`,
  description: `About program ${i}`,
  thumbnail_url: `https://cdn.example/${i}.jpg`,
  start: new Date(start).toISOString(),
  end: new Date(end).toISOString(),
  content_type: i % 2 ? 'show' : 'episode',
  content_id: `sh_${i}`,
  rating: 'TV-PG',
});

/** A channel's schedule: minute-aligned programs of 1 min–MAX, each after an optional gap. */
const scheduleArb = fc
  .tuple(
    fc.constantFrom(...ANCHORS),
    fc.integer({ min: -36 * 60, max: 12 * 60 }),
    fc.array(
      fc.tuple(
        fc.integer({ min: 1, max: MAX_PROGRAM_MINUTES }),
        fc.oneof(
          { weight: 4, arbitrary: fc.constant(0) },
          { weight: 1, arbitrary: fc.integer({ min: 1, max: 180 }) },
        ),
      ),
      { minLength: 1, maxLength: 30 },
    ),
  )
  .map(([anchor, shift, parts]) => {
    const programs: ProgramRecord[] = [];
    let t = anchor + shift * MINUTE;
    parts.forEach(([minutes, gap], i) => {
      t += gap * MINUTE;
      programs.push(program(i, t, t + minutes * MINUTE));
      t += minutes * MINUTE;
    });
    return programs;
  });

/** `now` anywhere from before the schedule to after it, at any millisecond. */
const withNow = scheduleArb.chain((programs) => {
  const first = Date.parse(programs[0]!.start);
  const last = Date.parse(programs.at(-1)!.end);
  return fc.tuple(
    fc.constant(programs),
    fc.oneof(
      fc.integer({ min: first - 2 * HOUR, max: last + 2 * HOUR }),
      fc.constantFrom(...programs.flatMap((p) => [Date.parse(p.start), Date.parse(p.end)])),
    ),
    fc.constantFrom(...ZONES),
  );
});

/** Offset text of an ISO timestamp, as minutes. */
const offsetOf = (iso: string) => {
  const m = /([+-])(\d{2}):(\d{2})$/.exec(iso)!;
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
};
/** Intl's offset at an instant (independent oracle). */
const intlOffset = (instant: number, zone: string) => {
  const name = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' })
    .formatToParts(new Date(instant))
    .find((p) => p.type === 'timeZoneName')!.value;
  const m = /^GMT(?:([+-])(\d{2}):(\d{2}))?$/.exec(name)!;
  return m[1] ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
};

describe('EPG program object', () => {
  it('has exactly one state flag, and the state-specific fields only for that state', () => {
    fc.assert(
      fc.property(withNow, ([programs, now, zone]) => {
        for (const p of programs) {
          const v = programView(p, zone, now);
          const start = Date.parse(p.start);
          const end = Date.parse(p.end);
          expect([v.is_past, v.is_current, v.is_upcoming].filter(Boolean)).toHaveLength(1);
          expect(v.is_current).toBe(start <= now && now < end);
          expect(v.is_past).toBe(now >= end);
          expect('elapsed_minutes' in v).toBe(v.is_current);
          expect('remaining_minutes' in v).toBe(v.is_current);
          expect('progress_percent' in v).toBe(v.is_current);
          expect('starts_in_minutes' in v).toBe(v.is_upcoming);
          expect('description' in v).toBe(false);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('elapsed + remaining = duration; progress 0–99; starts_in counts whole minutes up', () => {
    fc.assert(
      fc.property(withNow, ([programs, now, zone]) => {
        for (const p of programs) {
          const v = programView(p, zone, now);
          const start = Date.parse(p.start);
          const end = Date.parse(p.end);
          expect(v.duration_minutes).toBe((end - start) / MINUTE);
          if (v.is_current) {
            expect(v.elapsed_minutes! + v.remaining_minutes!).toBe(v.duration_minutes);
            expect(v.elapsed_minutes).toBe(Math.floor((now - start) / MINUTE));
            expect(v.remaining_minutes).toBeGreaterThanOrEqual(1);
            expect(v.progress_percent).toBeGreaterThanOrEqual(0);
            expect(v.progress_percent).toBeLessThanOrEqual(99);
            expect(Number.isInteger(v.progress_percent)).toBe(true);
          }
          if (v.is_upcoming) {
            expect(v.starts_in_minutes).toBeGreaterThanOrEqual(1);
            expect(v.starts_in_minutes! * MINUTE).toBeGreaterThanOrEqual(start - now);
            expect((v.starts_in_minutes! - 1) * MINUTE).toBeLessThan(start - now);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('start/end carry the offset in force at each instant and name the stored instants', () => {
    fc.assert(
      fc.property(withNow, ([programs, now, zone]) => {
        const views = programs.map((p) => programView(p, zone, now));
        views.forEach((v, i) => {
          const p = programs[i]!;
          expect(Date.parse(v.start_time)).toBe(Date.parse(p.start));
          expect(Date.parse(v.end_time)).toBe(Date.parse(p.end));
          expect(offsetOf(v.start_time)).toBe(intlOffset(Date.parse(p.start), zone));
          expect(offsetOf(v.end_time)).toBe(intlOffset(Date.parse(p.end), zone));
          // The 12-hour text is the same wall clock as the ISO text.
          const [hh, mm] = v.start_time.slice(11, 16).split(':').map(Number) as [number, number];
          expect(v.start_time_formatted).toBe(
            `${hh % 12 || 12}:${String(mm).padStart(2, '0')} ${hh < 12 ? 'AM' : 'PM'}`,
          );
        });
        // Ordered and non-overlapping, as stored.
        for (let i = 1; i < views.length; i++) {
          expect(Date.parse(views[i - 1]!.end_time)).toBeLessThanOrEqual(Date.parse(views[i]!.start_time));
        }
      }),
      { numRuns: 200 },
    );
  });

  it('adds the description only when asked', () => {
    const p = program(1, Date.UTC(2026, 0, 1, 10), Date.UTC(2026, 0, 1, 11));
    const at = Date.UTC(2026, 0, 1, 10, 30);
    expect(programDetailView(p, 'UTC', at).description).toBe('About program 1');
    expect(programView(p, 'UTC', at)).not.toHaveProperty('description');
    expect(programDetailView(p, 'UTC', at)).toEqual({
      ...programView(p, 'UTC', at),
      description: 'About program 1',
    });
  });

  it('reads a New York program over the spring-forward change with both offsets', () => {
    const p = program(1, Date.UTC(2026, 2, 8, 6, 30), Date.UTC(2026, 2, 8, 7, 30));
    const v = programView(p, 'America/New_York', Date.UTC(2026, 2, 8, 7, 0));
    expect(v).toMatchObject({
      start_time: '2026-03-08T01:30:00-05:00',
      end_time: '2026-03-08T03:30:00-04:00',
      start_time_formatted: '1:30 AM',
      end_time_formatted: '3:30 AM',
      duration_minutes: 60,
      is_current: true,
      elapsed_minutes: 30,
      remaining_minutes: 30,
      progress_percent: 50,
    });
  });
});

describe('currentAndNext', () => {
  it('finds the program on air and the first one starting after now, in any input order', () => {
    fc.assert(
      fc.property(
        withNow.chain(([programs, now, zone]) =>
          fc.tuple(
            fc.shuffledSubarray(programs, { minLength: programs.length }),
            fc.constant(now),
            fc.constant(zone),
          ),
        ),
        ([shuffled, now, zone]) => {
          const { current, next } = currentAndNext(shuffled, now);
          const onAir = shuffled.filter((p) => programState(p, now) === 'current');
          expect(onAir.length).toBeLessThanOrEqual(1);
          expect(current).toEqual(onAir[0]);
          const later = shuffled
            .filter((p) => Date.parse(p.start) > now)
            .sort((a, b) => Date.parse(a.start) - Date.parse(b.start));
          expect(next).toEqual(later[0]);
          if (next) {
            const view = nextProgramView(next, zone, now);
            expect(view.starts_in_minutes).toBe(programView(next, zone, now).starts_in_minutes);
            expect(Object.keys(view).sort()).toEqual(
              ['duration_minutes', 'program_id', 'start_time_formatted', 'starts_in_minutes', 'title'].sort(),
            );
          }
          if (current) {
            const progress = currentProgramProgressView(current, now);
            const full = programView(current, zone, now);
            expect(progress).toEqual({
              program_id: current.program_id,
              title: current.title,
              elapsed_minutes: full.elapsed_minutes,
              remaining_minutes: full.remaining_minutes,
              progress_percent: full.progress_percent,
            });
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('programItems', () => {
  it('keys a program by channel and start, and refuses programs the read path cannot find', () => {
    const p = program(1, Date.UTC(2026, 0, 1, 10), Date.UTC(2026, 0, 1, 11));
    const [item] = programItems(p, 101);
    expect(item).toMatchObject({ ...programKey('ch_0001', '2026-01-01T10:00:00+00:00'), ...p });
    expect(() => programItems(program(2, 0, (MAX_PROGRAM_MINUTES + 1) * MINUTE), 101)).toThrow(RangeError);
    expect(() => programItems(program(3, 5 * MINUTE, 5 * MINUTE), 101)).toThrow(RangeError);
  });

  it('indexes a program for the guide by the 6-hour UTC block of its start, then channel number and start', () => {
    const at = (hour: number, minute = 0) => Date.UTC(2026, 0, 1, hour, minute);
    const keys = (start: number) => {
      const [item] = programItems(program(4, start, start + 30 * MINUTE), 7);
      return [item!.GSI2PK, item!.GSI2SK];
    };
    expect(keys(at(0))).toEqual(['GUIDE#2026-01-01T00', '000007#2026-01-01T00:00:00.000Z']);
    expect(keys(at(5, 59))).toEqual(['GUIDE#2026-01-01T00', '000007#2026-01-01T05:59:00.000Z']);
    expect(keys(at(6))).toEqual(['GUIDE#2026-01-01T06', '000007#2026-01-01T06:00:00.000Z']);
    expect(keys(at(23, 30))).toEqual(['GUIDE#2026-01-01T18', '000007#2026-01-01T23:30:00.000Z']);
  });
});

describe('what a program broadcasts', () => {
  it('answers null content for a program created with none (its own id, or a demo generic program), the show or episode otherwise', () => {
    const now = Date.UTC(2026, 5, 15, 12);
    const base = program(1, now - HOUR, now + HOUR);
    const studio = { ...base, content_type: 'show' as const, content_id: base.program_id };
    const demo = { ...base, content_type: 'show' as const, content_id: 'pg_show_0042' };
    for (const p of [studio, demo]) {
      expect(programView(p, 'UTC', now)).toMatchObject({ content_type: null, content_id: null });
      expect(programDetailView(p, 'UTC', now)).toMatchObject({ content_type: null, content_id: null });
    }
    const episode = { ...base, content_type: 'episode' as const, content_id: 'ep_0001_s1e01' };
    expect(programView(episode, 'UTC', now)).toMatchObject({
      content_type: 'episode',
      content_id: 'ep_0001_s1e01',
    });
  });
});
