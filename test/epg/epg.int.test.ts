import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Catalog,
  type CreatorRecord,
  type ProgramRecord,
  programContent,
} from '../../shared/catalog/model.ts';
import { clock } from '../../shared/clock.ts';
import { heartbeatEpg, onAirNow, watchEpg } from '../../shared/epg/on-air.ts';
import { generateCatalog } from '../../scripts/seed/generate.ts';
import { dynamoCalls, type TestApi, testApi } from '../support/api.ts';

/**
 * Every EPG endpoint through the local API against the seeded demo catalogue. The oracle is the
 * catalogue itself (the generator is deterministic: same seed and `now` as test/global-setup.ts),
 * filtered with plain arithmetic on zone offsets (Kathmandu +05:45 all year; Chatham +13:45 in its
 * southern summer, +12:45 in its winter, read from Intl's offset text at each instant) so it does
 * not share code with the implementation. `now` follows the seed's instant, any day of the year
 * (scripts/time-sweep.ts runs it at chosen ones).
 */
let api: TestApi;
let catalog: Catalog;
let now: number;
const originalNow = clock.now;
const MINUTE = 60_000;
const DAY = 86_400_000;

const creator = (id: string): CreatorRecord => catalog.creators.find((c) => c.id === id)!;
const programsOf = (c: CreatorRecord): ProgramRecord[] =>
  catalog.programs
    .filter((p) => p.channel_id === c.channel.channel_id)
    .sort((a, b) => a.start.localeCompare(b.start));
const overlapping = (c: CreatorRecord, from: number, to: number) =>
  programsOf(c).filter((p) => Date.parse(p.end) > from && Date.parse(p.start) < to);
/** Local date in a fixed-offset zone. */
const localDate = (instant: number, offsetMinutes: number) =>
  new Date(instant + offsetMinutes * MINUTE).toISOString().slice(0, 10);
const chathamOffsets = new Intl.DateTimeFormat('en-US', {
  timeZone: 'Pacific/Chatham',
  timeZoneName: 'longOffset',
});
/** Pacific/Chatham's offset at `instant` in minutes (825 or 765), from Intl's `GMT+13:45` text. */
const chatham = (instant: number): number => {
  const text = chathamOffsets.formatToParts(instant).find((part) => part.type === 'timeZoneName')!.value;
  const [, hours, minutes] = /^GMT\+(\d{2}):(\d{2})$/.exec(text)!;
  return Number(hours) * 60 + Number(minutes);
};
/** `+13:45` / `+12:45`: Chatham's offset at `instant` as an ISO suffix. */
const chathamSuffix = (instant: number) =>
  `+${Math.floor(chatham(instant) / 60)}:${String(chatham(instant) % 60).padStart(2, '0')}`;
/** Chatham's local date at `instant`. */
const chathamDate = (instant: number) => localDate(instant, chatham(instant));
/** The instant Chatham's `date` starts (its clocks change at 02:45/03:45, never near midnight). */
const chathamMidnight = (date: string) =>
  Date.parse(`${date}T00:00:00Z`) - chatham(Date.parse(`${date}T00:00:00Z`) - 13 * 60 * MINUTE) * MINUTE;
/** Chatham's `date` as instants [start, end): 23, 24 or 25 hours. */
const chathamDay = (date: string) => {
  const start = chathamMidnight(date);
  return { start, end: chathamMidnight(localDate(Date.parse(`${date}T12:00:00Z`) + DAY, 0)) };
};
/** ISO text of `instant` in Chatham, as the API writes it. */
const chathamIso = (instant: number) =>
  `${new Date(instant + chatham(instant) * MINUTE).toISOString().slice(0, 19)}${chathamSuffix(instant)}`;

beforeAll(async () => {
  api = await testApi();
  catalog = generateCatalog({ now: api.seededAt, seed: 42 });
  // A fixed instant inside the seeded schedule: seed time + 10 h 7 min 30 s (never on a boundary).
  now = Math.floor(api.seededAt.getTime() / MINUTE) * MINUTE + 10 * 60 * MINUTE + 7.5 * MINUTE;
  clock.now = () => new Date(now);
});
afterAll(() => {
  clock.now = originalNow;
});

const C1 = 'cr_0001';

/** `offset`: the zone's ISO suffix, or the suffix at an instant (Chatham's changes with the season). */
const expectProgramObject = (
  view: any,
  record: ProgramRecord,
  offset: string | ((instant: number) => string),
) => {
  const start = Date.parse(record.start);
  const end = Date.parse(record.end);
  const duration = (end - start) / MINUTE;
  expect(view).toMatchObject({
    program_id: record.program_id,
    title: record.title,
    thumbnail_url: record.thumbnail_url,
    duration_minutes: duration,
    ...programContent(record),
    rating: record.rating,
    is_past: now >= end,
    is_current: now >= start && now < end,
    is_upcoming: now < start,
  });
  const suffix = (instant: number) => (typeof offset === 'string' ? offset : offset(instant));
  expect(view.start_time.endsWith(suffix(start))).toBe(true);
  expect(view.end_time.endsWith(suffix(end))).toBe(true);
  expect(Date.parse(view.start_time)).toBe(start);
  expect(Date.parse(view.end_time)).toBe(end);
  expect(view.start_time_formatted).toMatch(/^(1[0-2]|[1-9]):[0-5]\d (AM|PM)$/);
  if (view.is_current) {
    expect(view.elapsed_minutes).toBe(Math.floor((now - start) / MINUTE));
    expect(view.elapsed_minutes + view.remaining_minutes).toBe(duration);
    expect(view.progress_percent).toBe(Math.floor(((now - start) / (end - start)) * 100));
  } else {
    expect(view).not.toHaveProperty('elapsed_minutes');
    expect(view).not.toHaveProperty('remaining_minutes');
    expect(view).not.toHaveProperty('progress_percent');
  }
  if (view.is_upcoming) expect(view.starts_in_minutes).toBe(Math.ceil((start - now) / MINUTE));
  else expect(view).not.toHaveProperty('starts_in_minutes');
};

describe('GET /creators/{id}/channel/schedule', () => {
  it('returns the zone calendar day of programs with offsets, flags and a 48-slot timeline (Kathmandu)', async () => {
    const date = localDate(now + DAY, 345);
    const res = await api.get(`/creators/${C1}/channel/schedule?timezone=Asia/Kathmandu&date=${date}`);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('success');
    const c = creator(C1);
    const d = res.body.data;
    expect(d).toMatchObject({
      channel_id: c.channel.channel_id,
      channel_name: c.channel.channel_name,
      channel_number: c.channel.channel_number,
      date,
      timezone: 'Asia/Kathmandu',
    });
    expect(d.timeline.start).toBe('12:00 AM');
    expect(d.timeline.end).toBe('12:00 AM');
    expect(d.timeline.slot_interval_minutes).toBe(30);
    expect(d.timeline.slots).toHaveLength(48);
    expect(d.timeline.slots.slice(0, 3)).toEqual(['12:00 AM', '12:30 AM', '1:00 AM']);
    expect(d.timeline.slots[26]).toBe('1:00 PM');
    const dayStart = Date.parse(`${date}T00:00:00+05:45`);
    const expected = overlapping(c, dayStart, dayStart + DAY);
    expect(expected.length).toBeGreaterThan(5);
    expect(d.schedule.map((p: any) => p.program_id)).toEqual(expected.map((p) => p.program_id));
    d.schedule.forEach((view: any, i: number) => {
      expectProgramObject(view, expected[i]!, '+05:45');
    });
  });

  it('defaults date to today in the zone and timezone to UTC', async () => {
    const utc = await api.get(`/creators/${C1}/channel/schedule`);
    expect(utc.status).toBe(200);
    expect(utc.body.data.timezone).toBe('UTC');
    expect(utc.body.data.date).toBe(localDate(now, 0));
    // Zone names are matched case-insensitively (as Intl does) and echoed in Intl's spelling
    // (timeZoneSpelling); a name ICU knows under an older alias (Asia/Katmandu) stays as sent.
    const lower = await api.get(`/creators/${C1}/channel/schedule?timezone=asia/kathmandu`);
    expect(lower.status).toBe(200);
    expect(lower.body.data.timezone).toBe('asia/kathmandu');
    const newYork = await api.get(`/creators/${C1}/channel/schedule?timezone=america/new_york`);
    expect(newYork.body.data.timezone).toBe('America/New_York');
    expect(lower.body.data.schedule[0].start_time.endsWith('+05:45')).toBe(true);
    const inChatham = await api.get(`/creators/${C1}/channel/schedule?timezone=Pacific/Chatham`);
    expect(inChatham.body.data.date).toBe(chathamDate(now));
    const schedule = inChatham.body.data.schedule;
    expect(schedule.filter((p: any) => p.is_current)).toHaveLength(1);
    for (const p of schedule) expect(p.start_time).toBe(chathamIso(Date.parse(p.start_time)));
    const day = chathamDay(chathamDate(now));
    expect(schedule.map((p: any) => p.program_id)).toEqual(
      overlapping(creator(C1), day.start, day.end).map((p) => p.program_id),
    );
  });

  it('narrows the day with from/to (HH:MM wall times in the zone)', async () => {
    const date = localDate(now + DAY, 345);
    const res = await api.get(
      `/creators/${C1}/channel/schedule?timezone=Asia/Kathmandu&date=${date}&from=10:00&to=12:00`,
    );
    expect(res.status).toBe(200);
    expect(res.body.data.timeline).toEqual({
      start: '10:00 AM',
      end: '12:00 PM',
      slot_interval_minutes: 30,
      slots: ['10:00 AM', '10:30 AM', '11:00 AM', '11:30 AM'],
    });
    const from = Date.parse(`${date}T10:00:00+05:45`);
    expect(res.body.data.schedule.map((p: any) => p.program_id)).toEqual(
      overlapping(creator(C1), from, from + 2 * 60 * MINUTE).map((p) => p.program_id),
    );
  });

  it('reads the programs with one Query after the creator lookup', async () => {
    const before = dynamoCalls.length;
    const res = await api.get(`/creators/${C1}/channel/schedule?timezone=America/New_York`);
    expect(res.status).toBe(200);
    expect(dynamoCalls.slice(before).filter((name) => name === 'QueryCommand')).toHaveLength(1);
    expect(dynamoCalls.slice(before)).not.toContain('BatchGetItemCommand');
  });

  it.each([
    ['timezone=Mars/Olympus', 'timezone'],
    ['timezone=', 'timezone'],
    ['timezone=%2B05:30', 'timezone'],
    ['date=2026-02-30', 'date'],
    ['date=tomorrow', 'date'],
    ['from=25:00', 'from'],
    ['from=9:00', 'from'],
    ['from=12:00&to=11:00', 'from'],
  ])('rejects %s with 400', async (query) => {
    const res = await api.get(`/creators/${C1}/channel/schedule?${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 'error', code: 400 });
  });

  it('400s a date outside the date window on every route that reads one (9999-12-31 in New York was a 500)', async () => {
    // The day 9999-12-31 in New York ends in year 10000, whose ISO key (`+010000-…`) sorts below
    // its start: the Query's BETWEEN bounds inverted and DynamoDB refused it.
    for (const path of [
      `/creators/${C1}/channel/schedule`,
      `/creators/${C1}/channel/live/epg`,
      `/channels/${creator(C1).channel.channel_id}/epg`,
      '/tv/v3/guide/schedule',
    ])
      for (const date of ['9999-12-31', '1969-12-31']) {
        const res = await api.get(`${path}?date=${date}&timezone=America/New_York`);
        expect(res.status, `${path} ${date}`).toBe(400);
        expect(res.body.message, `${path} ${date}`).toMatch(/date must be .*between 1970-01-01/);
      }
  });

  it('404s an unknown creator', async () => {
    const res = await api.get('/creators/cr_9999/channel/schedule');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ status: 'error', code: 404 });
  });
});

const onAir = (c: CreatorRecord) => {
  const list = programsOf(c);
  const i = list.findIndex((p) => Date.parse(p.start) <= now && now < Date.parse(p.end));
  return { current: list[i]!, next: list[i + 1]!, after: list.slice(i + 1) };
};

describe('GET /creators/{id}/channel/schedule/current and /live/epg/current', () => {
  it('returns the program on air and the next one, in the zone', async () => {
    const c = creator(C1);
    const { current, next } = onAir(c);
    const res = await api.get(`/creators/${C1}/channel/schedule/current?timezone=Asia/Kathmandu`);
    expect(res.status).toBe(200);
    const d = res.body.data;
    expect(d).toMatchObject({
      channel_id: c.channel.channel_id,
      channel_name: c.channel.channel_name,
      is_live: c.live !== null,
      watching_now: expect.any(Number),
      watching_now_formatted: expect.any(String),
    });
    expectProgramObject(d.current_program, current, '+05:45');
    expect(d.current_program.is_current).toBe(true);
    expect(d.current_program).not.toHaveProperty('description');
    expect(d.next_program).toEqual({
      program_id: next.program_id,
      title: next.title,
      start_time_formatted: expect.stringMatching(/^(1[0-2]|[1-9]):[0-5]\d (AM|PM)$/),
      duration_minutes: (Date.parse(next.end) - Date.parse(next.start)) / MINUTE,
      starts_in_minutes: Math.ceil((Date.parse(next.start) - now) / MINUTE),
    });
    const local = new Date(Date.parse(next.start) + 345 * MINUTE);
    const h = local.getUTCHours();
    expect(d.next_program.start_time_formatted).toBe(
      `${h % 12 || 12}:${String(local.getUTCMinutes()).padStart(2, '0')} ${h < 12 ? 'AM' : 'PM'}`,
    );
  });

  it('live variant adds the description and omits channel_name', async () => {
    const c = creator(C1);
    const res = await api.get(`/creators/${C1}/channel/live/epg/current`);
    expect(res.status).toBe(200);
    const d = res.body.data;
    expect(d).not.toHaveProperty('channel_name');
    expect(d.channel_id).toBe(c.channel.channel_id);
    expect(d.current_program.description).toBe(onAir(c).current.description);
    expect(d.next_program.program_id).toBe(onAir(c).next.program_id);
  });

  it('404s an unknown creator and 400s a bad timezone', async () => {
    expect((await api.get('/creators/cr_9999/channel/live/epg/current')).status).toBe(404);
    expect((await api.get(`/creators/${C1}/channel/schedule/current?timezone=Europe/Atlantis`)).status).toBe(
      400,
    );
  });
});

describe('GET /creators/{id}/channel/schedule/upcoming and /live/epg/next', () => {
  it('returns the next 5 programs by default, all upcoming, in order', async () => {
    const c = creator('cr_0002');
    const res = await api.get('/creators/cr_0002/channel/schedule/upcoming?timezone=Pacific/Chatham');
    expect(res.status).toBe(200);
    expect(res.body.data.channel_id).toBe(c.channel.channel_id);
    expect(res.body.data.channel_name).toBe(c.channel.channel_name);
    const expected = onAir(c).after.slice(0, 5);
    const upcoming = res.body.data.upcoming_programs;
    expect(upcoming.map((p: any) => p.program_id)).toEqual(expected.map((p) => p.program_id));
    upcoming.forEach((view: any, i: number) => {
      expectProgramObject(view, expected[i]!, chathamSuffix);
      expect(view.is_upcoming).toBe(true);
    });
  });

  it('honours limit', async () => {
    const res = await api.get(`/creators/${C1}/channel/schedule/upcoming?limit=8`);
    expect(res.body.data.upcoming_programs).toHaveLength(8);
    expect((await api.get(`/creators/${C1}/channel/schedule/upcoming?limit=0`)).status).toBe(400);
  });

  it('live/epg/next returns 3 by default, without channel_name', async () => {
    const c = creator(C1);
    const res = await api.get(`/creators/${C1}/channel/live/epg/next`);
    expect(res.status).toBe(200);
    expect(res.body.data).not.toHaveProperty('channel_name');
    expect(res.body.data.upcoming_programs.map((p: any) => p.program_id)).toEqual(
      onAir(c)
        .after.slice(0, 3)
        .map((p) => p.program_id),
    );
    expect((await api.get('/creators/cr_9999/channel/live/epg/next')).status).toBe(404);
  });
});

describe('GET /creators/{id}/channel/live/epg', () => {
  it('returns the compact schedule with progress for every row', async () => {
    const c = creator(C1);
    const res = await api.get(`/creators/${C1}/channel/live/epg?timezone=Asia/Kathmandu`);
    expect(res.status).toBe(200);
    const d = res.body.data;
    expect(d.channel_id).toBe(c.channel.channel_id);
    expect(d.date).toBe(localDate(now, 345));
    expect(d.timezone).toBe('Asia/Kathmandu');
    expect(d.timeline.slots).toHaveLength(48);
    const dayStart = Date.parse(`${d.date}T00:00:00+05:45`);
    const expected = overlapping(c, dayStart, dayStart + DAY);
    expect(d.schedule).toHaveLength(expected.length);
    d.schedule.forEach((row: any, i: number) => {
      const p = expected[i]!;
      const start = Date.parse(p.start);
      const end = Date.parse(p.end);
      expect(Object.keys(row).sort()).toEqual(
        [
          'program_id',
          'title',
          'start_time_formatted',
          'end_time_formatted',
          'duration_minutes',
          'progress_percent',
          'is_current',
          'rating',
        ].sort(),
      );
      expect(row.program_id).toBe(p.program_id);
      expect(row.is_current).toBe(start <= now && now < end);
      const progress = now >= end ? 100 : now < start ? 0 : Math.floor(((now - start) / (end - start)) * 100);
      expect(row.progress_percent).toBe(progress);
    });
    expect(d.schedule.filter((r: any) => r.is_current)).toHaveLength(1);
  });

  it('400s from/to that are not HH:MM and 404s an unknown creator', async () => {
    expect((await api.get(`/creators/${C1}/channel/live/epg?to=noon`)).status).toBe(400);
    expect((await api.get('/creators/cr_9999/channel/live/epg')).status).toBe(404);
  });
});

describe('GET /tv/v3/guide/schedule', () => {
  it('pages channels in channel-number order with their programs over the next 3 hours', async () => {
    const res = await api.get('/tv/v3/guide/schedule?timezone=Asia/Kathmandu&limit=5&page=2');
    expect(res.status).toBe(200);
    // The catalogue's channels, the demo creator's, and any creator other tests onboard meanwhile.
    const { total } = res.body.meta_data;
    expect(total).toBeGreaterThanOrEqual(catalog.creators.length + 1);
    expect(res.body.meta_data).toEqual({ total, page: 2, limit: 5, total_pages: Math.ceil(total / 5) });
    const d = res.body.data;
    expect(d.timezone).toBe('Asia/Kathmandu');
    // The window starts at the current local half hour (Kathmandu :00/:30, i.e. UTC :15/:45).
    const start = Date.parse(d.start_time);
    expect(start).toBeLessThanOrEqual(now);
    expect(now - start).toBeLessThan(30 * MINUTE);
    expect(d.start_time).toMatch(/T\d\d:(00|30):00\+05:45$/);
    expect(Date.parse(d.end_time) - start).toBe(3 * 60 * MINUTE);
    expect(d.timeline.slots).toHaveLength(6);
    const byNumber = [...catalog.creators].sort(
      (a, b) => a.channel.channel_number - b.channel.channel_number,
    );
    expect(d.channels.map((ch: any) => ch.channel_id)).toEqual(
      byNumber.slice(5, 10).map((c) => c.channel.channel_id),
    );
    for (const ch of d.channels) {
      const c = catalog.creators.find((x) => x.channel.channel_id === ch.channel_id)!;
      expect(ch).toMatchObject({
        channel_name: c.channel.channel_name,
        channel_number: c.channel.channel_number,
        creator_id: c.id,
        is_live: c.live !== null,
      });
      const expected = overlapping(c, start, start + 3 * 60 * MINUTE);
      expect(ch.programs.map((p: any) => p.program_id)).toEqual(expected.map((p) => p.program_id));
      ch.programs.forEach((view: any, i: number) => {
        expectProgramObject(view, expected[i]!, '+05:45');
      });
    }
  });

  it('filters by channel_id, date and hours', async () => {
    const c = creator('cr_0003');
    const date = chathamDate(now + DAY);
    const res = await api.get(
      `/tv/v3/guide/schedule?timezone=Pacific/Chatham&channel_id=${c.channel.channel_id}&date=${date}&hours=4`,
    );
    expect(res.status).toBe(200);
    expect(res.body.meta_data).toEqual({ total: 1, page: 1, limit: 20, total_pages: 1 });
    const d = res.body.data;
    expect(d.date).toBe(date);
    const start = chathamMidnight(date);
    expect(d.start_time).toBe(chathamIso(start));
    expect(d.start_time.startsWith(`${date}T00:00:00+`)).toBe(true);
    // Four hours of elapsed time: 04:00 local, or 03:00/05:00 on a day the clocks change before it.
    expect(d.end_time).toBe(chathamIso(start + 4 * 60 * MINUTE));
    expect(d.channels).toHaveLength(1);
    expect(d.channels[0].programs.map((p: any) => p.program_id)).toEqual(
      overlapping(c, start, start + 4 * 60 * MINUTE).map((p) => p.program_id),
    );
  });

  it('defaults to page 1 of 20 channels; 404 unknown channel; 400 bad hours', async () => {
    const res = await api.get('/tv/v3/guide/schedule');
    expect(res.status).toBe(200);
    expect(res.body.meta_data).toMatchObject({ page: 1, limit: 20 });
    expect(res.body.data.channels).toHaveLength(20);
    expect(res.body.data.timezone).toBe('UTC');
    expect((await api.get('/tv/v3/guide/schedule?channel_id=ch_9999')).status).toBe(404);
    expect((await api.get('/tv/v3/guide/schedule?hours=0')).status).toBe(400);
    expect((await api.get('/tv/v3/guide/schedule?hours=25')).status).toBe(400);
  });
});

describe('GET /channels/{id}/epg', () => {
  it('returns the channel day schedule by channel id with its creator', async () => {
    const c = creator('cr_0004');
    const res = await api.get(`/channels/${c.channel.channel_id}/epg?timezone=Asia/Kathmandu`);
    expect(res.status).toBe(200);
    const d = res.body.data;
    expect(d).toMatchObject({
      creator_id: c.id,
      channel_id: c.channel.channel_id,
      channel_name: c.channel.channel_name,
      channel_number: c.channel.channel_number,
      is_live: c.live !== null,
      date: localDate(now, 345),
      timezone: 'Asia/Kathmandu',
    });
    const dayStart = Date.parse(`${d.date}T00:00:00+05:45`);
    expect(d.schedule.map((p: any) => p.program_id)).toEqual(
      overlapping(c, dayStart, dayStart + DAY).map((p) => p.program_id),
    );
    expect(d.timeline.slots).toHaveLength(48);
  });

  it('404s an unknown channel', async () => {
    const res = await api.get('/channels/ch_9999/epg');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ status: 'error', code: 404 });
  });
});

describe('reuse API for the live channel (watchEpg, heartbeatEpg, onAirNow)', () => {
  it('watchEpg: today in the zone, current program with description, schedule from it to the end of the day', async () => {
    const c = creator(C1);
    const epg = await watchEpg(c, 'Pacific/Chatham', new Date(now));
    const date = chathamDate(now);
    expect(epg.date).toBe(date);
    expect(epg.timezone).toBe('Pacific/Chatham');
    const { current } = onAir(c);
    expect(epg.current_program).toMatchObject({
      program_id: current.program_id,
      description: current.description,
    });
    const dayEnd = chathamDay(date).end;
    expect(epg.schedule.map((p) => p.program_id)).toEqual(
      overlapping(c, now, Math.max(dayEnd, now + 60 * MINUTE)).map((p) => p.program_id),
    );
    expect(epg.schedule[0]!.is_current).toBe(true);
  });

  it("watchEpg: a container reuses a channel's programs for 5 minutes (one read), then reads again", async () => {
    const c = creator('cr_0002');
    const queries = async (at: number) => {
      const before = dynamoCalls.length;
      const epg = await watchEpg(c, 'Asia/Kathmandu', new Date(at));
      return { epg, reads: dynamoCalls.slice(before).filter((name) => name === 'QueryCommand').length };
    };
    const expected = (at: number) =>
      overlapping(
        c,
        at,
        Math.max(Date.parse(`${localDate(at, 345)}T00:00:00+05:45`) + DAY, at + 60 * MINUTE),
      );
    const first = await queries(now);
    expect(first.reads).toBe(1);
    // Later within 5 minutes: no read, and the programs that ended meanwhile are gone.
    for (const at of [now + 2 * MINUTE, now + 4 * MINUTE + 59_000]) {
      const later = await queries(at);
      expect(later.reads).toBe(0);
      expect(later.epg.schedule.map((p) => p.program_id)).toEqual(expected(at).map((p) => p.program_id));
      expect(later.epg.current_program?.program_id).toBe(expected(at)[0]?.program_id);
    }
    const stale = await queries(now + 5 * MINUTE);
    expect(stale.reads).toBe(1);
    expect(stale.epg.schedule.map((p) => p.program_id)).toEqual(
      expected(now + 5 * MINUTE).map((p) => p.program_id),
    );
  });

  it("watchEpg: that one read serves every time zone, even in a day's last hour", async () => {
    // cr_0005's channel, 20 minutes before the first Kathmandu midnight after `now`: an open from
    // Kathmandu asks for the next hour, later opens for a little more, other zones for the rest of
    // their own day. Zones without daylight saving time, so the offsets hold on any date.
    const c = creator('cr_0005');
    const zones = { 'Asia/Kathmandu': 345, UTC: 0, 'Pacific/Kiritimati': 840, 'America/Phoenix': -420 };
    const start = Date.parse(`${localDate(now, 345)}T00:00:00+05:45`) + DAY - 20 * MINUTE;
    const reads: number[] = [];
    for (const at of [start, start + 2 * MINUTE, start + 4 * MINUTE + 59_000]) {
      for (const [zone, offset] of Object.entries(zones)) {
        const before = dynamoCalls.length;
        const epg = await watchEpg(c, zone, new Date(at));
        reads.push(dynamoCalls.slice(before).filter((name) => name === 'QueryCommand').length);
        const dayEnd = Date.parse(`${localDate(at, offset)}T00:00:00Z`) - offset * MINUTE + DAY;
        const expected = overlapping(c, at, Math.max(dayEnd, at + 60 * MINUTE));
        expect(expected.length).toBeGreaterThan(0);
        expect(epg.schedule.map((p) => p.program_id)).toEqual(expected.map((p) => p.program_id));
      }
    }
    expect(reads).toEqual([1, ...Array(11).fill(0)]);
  });

  it("watchEpg: that one read holds the longest local day, Antarctica/Troll's 26 hours", async () => {
    // Troll leaves +02:00 for +00:00 at 01:00Z on October's last Sunday: that day runs from
    // Saturday 22:00Z to Monday 00:00Z. An open a minute before it starts asks for the next hour;
    // one 2 minutes later for the whole 26-hour day, which the first read must already hold.
    const c = creator('cr_0007');
    const year = new Date(now).getUTCFullYear();
    const lastSunday = 31 - new Date(Date.UTC(year, 9, 31)).getUTCDay();
    const dayStart = Date.UTC(year, 9, lastSunday) - 2 * 60 * MINUTE;
    const reads: number[] = [];
    for (const at of [dayStart - MINUTE, dayStart + MINUTE]) {
      const before = dynamoCalls.length;
      const epg = await watchEpg(c, 'Antarctica/Troll', new Date(at));
      reads.push(dynamoCalls.slice(before).filter((name) => name === 'QueryCommand').length);
      const dayEnd = at < dayStart ? dayStart : dayStart + 26 * 60 * MINUTE;
      expect(epg.schedule.map((p) => p.program_id)).toEqual(
        overlapping(c, at, Math.max(dayEnd, at + 60 * MINUTE)).map((p) => p.program_id),
      );
    }
    expect(reads).toEqual([1, 0]);
  });

  it('heartbeatEpg: progress of the current program and the next one', async () => {
    const c = creator(C1);
    const { current, next } = onAir(c);
    const hb = await heartbeatEpg(c, 'Asia/Kathmandu', new Date(now));
    const start = Date.parse(current.start);
    const duration = (Date.parse(current.end) - start) / MINUTE;
    expect(hb.current_program).toEqual({
      program_id: current.program_id,
      title: current.title,
      elapsed_minutes: Math.floor((now - start) / MINUTE),
      remaining_minutes: duration - Math.floor((now - start) / MINUTE),
      progress_percent: Math.floor(((now - start) / (Date.parse(current.end) - start)) * 100),
    });
    expect(hb.next_program).toMatchObject({
      program_id: next.program_id,
      starts_in_minutes: Math.ceil((Date.parse(next.start) - now) / MINUTE),
    });
  });

  it('onAirNow: nothing on air and nothing next past the end of the stored schedule', async () => {
    const c = creator(C1);
    const last = programsOf(c).at(-1)!;
    const after = await onAirNow(c, new Date(Date.parse(last.end) + MINUTE));
    expect(after).toEqual({ current: undefined, next: undefined });
    const atLastStart = await onAirNow(c, new Date(Date.parse(last.start)));
    expect(atLastStart.current?.program_id).toBe(last.program_id);
    expect(atLastStart.next).toBeUndefined();
  });
});
