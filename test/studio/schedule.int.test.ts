import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand } from '../../shared/db/document.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EpisodeRecord, ShowRecord } from '../../shared/catalog/model.ts';
import { db } from '../../shared/db/client.ts';
import { tableName } from '../../shared/db/table.ts';
import { getScheduleVersion } from '../../shared/epg/program-repository.ts';
import { issueAccessToken } from '../../shared/identity/access-token.ts';
import { creatorKey } from '../../shared/creators/creator-repository.ts';
import { episodeItem, showItem, tallyOf } from '../../shared/shows/show-repository.ts';
import { type TestApi, testApi } from '../support/api.ts';
import { type StudioCreator, studioCreator } from '../support/studio.ts';

let api: TestApi;
let a: StudioCreator;
let b: StudioCreator;
let showOfA: ShowRecord;
let episodeOfA: EpisodeRecord;
let showOfB: ShowRecord;

const PROGRAMS = '/studio/channel/programs';
/**
 * The programs' year: 4 years after the run's (2030 in 2026), so every time below is ahead of any
 * run (a program starts no earlier than 24 hours ago and at most 10 years ahead: PROGRAM_PAST_HOURS,
 * DATE_WINDOW_YEARS_AHEAD). A fixed 2030 made every test of this file a 422 from 2030-01-09 on.
 */
const YEAR = new Date().getUTCFullYear() + 4;

/** A show (and its first episode) of `creatorId`, written as the studio's source items are. */
const putShow = async (creatorId: string): Promise<{ show: ShowRecord; episode: EpisodeRecord }> => {
  const id = randomUUID().replace(/-/g, '').slice(0, 10);
  const show: ShowRecord = {
    id: `sh_t${id}`,
    slug: `studio-test-${id}`,
    title: `Studio test ${id}`,
    description: 'A show made by the schedule test.',
    creator_id: creatorId,
    category: 'music',
    rating: 'TV-PG',
    tags: [],
    is_new: false,
    is_featured: false,
    thumbnail_url: `https://cdn.example.com/shows/sh_t${id}/poster.jpg`,
    thumbnail_color: '#123456',
    released_at: '2026-01-01T00:00:00.000Z',
    year: 2026,
    starring: 'Nobody',
    subtitles: [],
    total_views: 0,
    views_7d: 0,
    seasons: [{ number: 1, title: 'Season 1' }],
  };
  const episode: EpisodeRecord = {
    id: `ep_t${id}_s1e01`,
    show_id: show.id,
    creator_id: creatorId,
    season: 1,
    episode_number: 1,
    title: 'Pilot',
    description: 'The first one.',
    duration_seconds: 1800,
    views: 0,
    access: 'free',
    price: null,
    currency: null,
    stream_url: `https://cdn.example.com/vod/ep_t${id}_s1e01/index.m3u8`,
    air_date: '2026-01-01T00:00:00.000Z',
    thumbnail_url: `https://cdn.example.com/vod/ep_t${id}_s1e01/thumb.jpg`,
  };
  for (const Item of [showItem({ ...show, episode_tally: tallyOf([episode]) }), episodeItem(episode)])
    await db.send(new PutCommand({ TableName: tableName(), Item }));
  return { show, episode };
};

beforeAll(async () => {
  api = await testApi();
  [a, b] = await Promise.all([studioCreator(api, 'comedy'), studioCreator(api, 'music')]);
  ({ show: showOfA, episode: episodeOfA } = await putShow(a.creatorId));
  ({ show: showOfB } = await putShow(b.creatorId));
});

const program = (overrides: Record<string, unknown> = {}) => ({
  title: 'Friday Night Laughs',
  rating: 'TV-14',
  start_time: `${YEAR}-01-10T20:00:00+01:00`,
  duration_minutes: 60,
  ...overrides,
});

const create = (who: StudioCreator, body: Record<string, unknown>) =>
  api.post(PROGRAMS, { token: who.token, body });

const fieldsOf = (res: { body: { errors?: Array<{ field: string }> } }) =>
  (res.body.errors ?? []).map((e) => e.field);

const scheduleOf = async (who: StudioCreator, date: string) => {
  const res = await api.get(`/creators/${who.creatorId}/channel/schedule?date=${date}&timezone=UTC`);
  expect(res.status).toBe(200);
  return res.body.data.schedule as Array<{
    program_id: string;
    title: string;
    start_time: string;
    end_time: string;
  }>;
};

describe('POST /studio/channel/programs', () => {
  it('answers 201 with the stored program, visible at once in the channel schedule', async () => {
    const res = await create(
      a,
      program({
        start_time: `${YEAR}-01-01T20:00:00+01:00`,
        end_time: `${YEAR}-01-01T21:30:00+01:00`,
        duration_minutes: undefined,
      }),
    );
    expect(res.status).toBe(201);
    const data = res.body.data;
    expect(data).toEqual({
      program_id: expect.stringMatching(/^pg_[0-9a-f]{12}$/),
      channel_id: expect.any(String),
      creator_id: a.creatorId,
      title: 'Friday Night Laughs',
      description: '',
      thumbnail_url: `https://cdn.example.com/epg/${data.program_id}.jpg`,
      start_time: `${YEAR}-01-01T19:00:00.000Z`,
      end_time: `${YEAR}-01-01T20:30:00.000Z`,
      duration_minutes: 90,
      rating: 'TV-14',
      content_type: null,
      content_id: null,
      version: 1,
    });
    const schedule = await scheduleOf(a, `${YEAR}-01-01`);
    expect(schedule.map((p) => [p.program_id, p.start_time, p.end_time])).toEqual([
      [data.program_id, `${YEAR}-01-01T19:00:00+00:00`, `${YEAR}-01-01T20:30:00+00:00`],
    ]);
    // Stored with the channel's schedule lock moved on (the race-free overlap check).
    expect(await getScheduleVersion(data.channel_id)).toBeGreaterThanOrEqual(1);
  });

  it('takes the caller’s own show or episode as content, and refuses another creator’s or an unknown one (422)', async () => {
    const withEpisode = await create(
      a,
      program({ start_time: `${YEAR}-01-02T10:00:00Z`, content_type: 'episode', content_id: episodeOfA.id }),
    );
    expect(withEpisode.status).toBe(201);
    expect(withEpisode.body.data).toMatchObject({
      content_type: 'episode',
      content_id: episodeOfA.id,
      thumbnail_url: episodeOfA.thumbnail_url,
    });
    const withShow = await create(
      a,
      program({ start_time: `${YEAR}-01-02T12:00:00Z`, content_type: 'show', content_id: showOfA.id }),
    );
    expect(withShow.status).toBe(201);
    expect(withShow.body.data).toMatchObject({ content_type: 'show', content_id: showOfA.id });
    const schedule = await scheduleOf(a, `${YEAR}-01-02`);
    expect(schedule.map((p) => p.program_id)).toEqual([
      withEpisode.body.data.program_id,
      withShow.body.data.program_id,
    ]);

    for (const content of [
      { content_type: 'show', content_id: showOfB.id },
      { content_type: 'show', content_id: 'sh_nope' },
      { content_type: 'episode', content_id: 'ep_nope' },
      { content_type: 'episode', content_id: showOfA.id },
    ]) {
      const refused = await create(a, program({ start_time: `${YEAR}-01-02T14:00:00Z`, ...content }));
      expect(refused.status, JSON.stringify(content)).toBe(422);
      expect(fieldsOf(refused)).toEqual(['content_id']);
    }
    const half = await create(a, program({ start_time: `${YEAR}-01-02T14:00:00Z`, content_type: 'show' }));
    expect(half.status).toBe(422);
    expect(fieldsOf(half)).toEqual(['content_id']);
    expect(await scheduleOf(a, `${YEAR}-01-02`)).toHaveLength(2);
  });

  it('answers 422 for times without an offset, both or neither of end_time/duration_minutes, and bad lengths', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ start_time: `${YEAR}-01-03T20:00:00` }, 'start_time'],
      [
        {
          start_time: `${YEAR}-01-03T20:00:00Z`,
          duration_minutes: undefined,
          end_time: `${YEAR}-01-03T21:00:00`,
        },
        'end_time',
      ],
      [{ start_time: `${YEAR}-01-03T20:00:00Z`, end_time: `${YEAR}-01-03T21:00:00Z` }, 'duration_minutes'],
      [{ start_time: `${YEAR}-01-03T20:00:00Z`, duration_minutes: undefined }, 'end_time'],
      [
        {
          start_time: `${YEAR}-01-03T20:00:00Z`,
          duration_minutes: undefined,
          end_time: `${YEAR}-01-03T20:00:00Z`,
        },
        'end_time',
      ],
      [
        {
          start_time: `${YEAR}-01-03T20:00:00Z`,
          duration_minutes: undefined,
          end_time: `${YEAR}-01-03T19:00:00Z`,
        },
        'end_time',
      ],
      [{ start_time: `${YEAR}-01-03T20:00:00Z`, duration_minutes: 12 * 60 + 1 }, 'duration_minutes'],
      [{ start_time: `${YEAR}-01-03T20:00:00Z`, duration_minutes: 1.5 }, 'duration_minutes'],
      [{ start_time: `${YEAR}-01-03T20:00:30Z` }, 'start_time'],
      [{ start_time: `${YEAR}-02-30T20:00:00Z` }, 'start_time'],
      [{ rating: 'R' }, 'rating'],
      [{ title: '   ' }, 'title'],
    ];
    for (const [overrides, field] of cases) {
      const res = await create(a, program(overrides));
      expect(res.status, JSON.stringify(overrides)).toBe(422);
      expect(fieldsOf(res), JSON.stringify(overrides)).toContain(field);
    }
    const longest = await create(
      a,
      program({ start_time: `${YEAR}-01-03T00:00:00Z`, duration_minutes: 12 * 60 }),
    );
    expect(longest.status).toBe(201);
    expect(await scheduleOf(a, `${YEAR}-01-03`)).toHaveLength(1);
  });

  it('answers 409 on overlap, allows adjacent programs', async () => {
    const first = await create(a, program({ start_time: `${YEAR}-01-04T10:00:00Z`, duration_minutes: 60 }));
    expect(first.status).toBe(201);
    for (const [start, minutes] of [
      [`${YEAR}-01-04T10:00:00Z`, 60],
      [`${YEAR}-01-04T09:30:00Z`, 31],
      [`${YEAR}-01-04T10:59:00Z`, 30],
      [`${YEAR}-01-04T10:15:00Z`, 5],
      [`${YEAR}-01-04T09:00:00Z`, 180],
    ] as const) {
      const clash = await create(a, program({ start_time: start, duration_minutes: minutes }));
      expect(clash.status, `${start} + ${minutes}`).toBe(409);
      expect(clash.body).toMatchObject({
        status: 'error',
        message: 'This program overlaps another program of the channel',
      });
    }
    const before = await create(
      a,
      program({
        start_time: `${YEAR}-01-04T09:00:00Z`,
        end_time: `${YEAR}-01-04T10:00:00Z`,
        duration_minutes: undefined,
      }),
    );
    const after = await create(
      a,
      program({ start_time: `${YEAR}-01-04T11:00:00+00:00`, duration_minutes: 30 }),
    );
    expect([before.status, after.status]).toEqual([201, 201]);
    expect((await scheduleOf(a, `${YEAR}-01-04`)).map((p) => p.program_id)).toEqual([
      before.body.data.program_id,
      first.body.data.program_id,
      after.body.data.program_id,
    ]);
    // Another channel's schedule is its own: the same time is free on b's channel.
    expect((await create(b, program({ start_time: `${YEAR}-01-04T10:00:00Z` }))).status).toBe(201);
  });

  it('lets exactly one of N concurrent overlapping POSTs through', async () => {
    const N = 6;
    const results = await Promise.all(
      Array.from({ length: N }, (_, i) =>
        create(
          a,
          program({
            title: `Race ${i}`,
            start_time: `${YEAR}-01-05T10:${String(i * 5).padStart(2, '0')}:00Z`,
            duration_minutes: 60,
          }),
        ),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, ...Array(N - 1).fill(409)]);
    const winner = results.find((r) => r.status === 201)!.body.data;
    expect((await scheduleOf(a, `${YEAR}-01-05`)).map((p) => p.program_id)).toEqual([winner.program_id]);
  });

  it('places concurrent programs that do not overlap, all of them', async () => {
    const results = await Promise.all(
      [0, 1, 2, 3].map((i) =>
        create(a, program({ start_time: `${YEAR}-01-06T0${i}:00:00Z`, duration_minutes: 60 })),
      ),
    );
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    expect(await scheduleOf(a, `${YEAR}-01-06`)).toHaveLength(4);
  });

  it('answers 401 without a token and 403 for an account that is no creator', async () => {
    const anonymous = await api.post(PROGRAMS, { body: program() });
    expect(anonymous.status).toBe(401);
    const token = (await issueAccessToken(`acc_${randomUUID().replace(/-/g, '').slice(0, 16)}`, new Date()))
      .token;
    const notCreator = await api.post(PROGRAMS, { token, body: program() });
    expect(notCreator.status).toBe(403);
  });
});

describe('PATCH and DELETE /studio/channel/programs/{program_id}', () => {
  it('moves a program (its length kept), checks overlap excluding itself, bumps its version', async () => {
    const one = (await create(a, program({ start_time: `${YEAR}-01-07T10:00:00Z`, duration_minutes: 60 })))
      .body.data;
    const two = (await create(a, program({ start_time: `${YEAR}-01-07T12:00:00Z`, duration_minutes: 60 })))
      .body.data;
    // Within its own slot: only itself overlaps, which does not count.
    const stretched = await api.patch(`${PROGRAMS}/${one.program_id}`, {
      token: a.token,
      body: { start_time: `${YEAR}-01-07T09:30:00Z`, title: 'Earlier' },
    });
    expect(stretched.status).toBe(200);
    expect(stretched.body.data).toMatchObject({
      program_id: one.program_id,
      title: 'Earlier',
      start_time: `${YEAR}-01-07T09:30:00.000Z`,
      end_time: `${YEAR}-01-07T10:30:00.000Z`,
      duration_minutes: 60,
      version: 2,
    });
    const onto = await api.patch(`${PROGRAMS}/${one.program_id}`, {
      token: a.token,
      body: { start_time: `${YEAR}-01-07T11:30:00Z` },
    });
    expect(onto.status).toBe(409);
    const adjacent = await api.patch(`${PROGRAMS}/${one.program_id}`, {
      token: a.token,
      body: { start_time: `${YEAR}-01-07T13:00:00Z`, duration_minutes: 45 },
    });
    expect(adjacent.status).toBe(200);
    expect(adjacent.body.data).toMatchObject({ end_time: `${YEAR}-01-07T13:45:00.000Z`, version: 3 });
    const schedule = await scheduleOf(a, `${YEAR}-01-07`);
    expect(schedule.map((p) => [p.program_id, p.start_time])).toEqual([
      [two.program_id, `${YEAR}-01-07T12:00:00+00:00`],
      [one.program_id, `${YEAR}-01-07T13:00:00+00:00`],
    ]);
    // A change with no new time, content added then removed.
    const content = await api.patch(`${PROGRAMS}/${two.program_id}`, {
      token: a.token,
      body: { content_type: 'show', content_id: showOfA.id, rating: 'TV-G' },
    });
    expect(content.status).toBe(200);
    expect(content.body.data).toMatchObject({
      content_type: 'show',
      content_id: showOfA.id,
      rating: 'TV-G',
      version: 2,
    });
    const cleared = await api.patch(`${PROGRAMS}/${two.program_id}`, {
      token: a.token,
      body: { content_type: null, content_id: null },
    });
    expect(cleared.body.data).toMatchObject({ content_type: null, content_id: null, version: 3 });
    const theirs = await api.patch(`${PROGRAMS}/${two.program_id}`, {
      token: a.token,
      body: { content_type: 'show', content_id: showOfB.id },
    });
    expect(theirs.status).toBe(422);
    const empty = await api.patch(`${PROGRAMS}/${two.program_id}`, { token: a.token, body: {} });
    expect(empty.status).toBe(422);
    const both = await api.patch(`${PROGRAMS}/${two.program_id}`, {
      token: a.token,
      body: { end_time: `${YEAR}-01-07T12:30:00Z`, duration_minutes: 30 },
    });
    expect(both.status).toBe(422);
    const backwards = await api.patch(`${PROGRAMS}/${two.program_id}`, {
      token: a.token,
      body: { end_time: `${YEAR}-01-07T11:30:00Z` },
    });
    expect(backwards.status).toBe(422);
    expect(fieldsOf(backwards)).toEqual(['end_time']);
  });

  it('lets exactly one of a concurrent move and a create into the same time through', async () => {
    for (const day of [`${YEAR}-01-09`, `${YEAR}-01-10`]) {
      const mover = (await create(a, program({ start_time: `${day}T08:00:00Z`, duration_minutes: 60 }))).body
        .data;
      const [moved, added] = await Promise.all([
        api.patch(`${PROGRAMS}/${mover.program_id}`, {
          token: a.token,
          body: { start_time: `${day}T12:00:00Z` },
        }),
        create(a, program({ start_time: `${day}T12:30:00Z`, duration_minutes: 60 })),
      ]);
      const outcome = [moved.status, added.status];
      expect([
        [200, 409],
        [409, 201],
      ]).toContainEqual(outcome);
      const schedule = await scheduleOf(a, day);
      expect(schedule).toHaveLength(moved.status === 200 ? 1 : 2);
      for (let i = 1; i < schedule.length; i++)
        expect(Date.parse(schedule[i]!.start_time)).toBeGreaterThanOrEqual(
          Date.parse(schedule[i - 1]!.end_time),
        );
    }
  });

  it('deletes a program (204, gone from the schedule, then 404); another creator’s program is 404', async () => {
    const mine = (await create(a, program({ start_time: `${YEAR}-01-08T10:00:00Z` }))).body.data;
    const theirs = (await create(b, program({ start_time: `${YEAR}-01-08T10:00:00Z` }))).body.data;
    for (const res of [
      await api.patch(`${PROGRAMS}/${theirs.program_id}`, { token: a.token, body: { title: 'Mine now' } }),
      await api.delete(`${PROGRAMS}/${theirs.program_id}`, { token: a.token }),
      await api.patch(`${PROGRAMS}/pg_000000000000`, { token: a.token, body: { title: 'Nothing' } }),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ message: 'Program not found' });
    }
    expect((await scheduleOf(b, `${YEAR}-01-08`)).map((p) => p.title)).toEqual(['Friday Night Laughs']);
    const deleted = await api.delete(`${PROGRAMS}/${mine.program_id}`, { token: a.token });
    expect(deleted.status).toBe(204);
    expect(await scheduleOf(a, `${YEAR}-01-08`)).toEqual([]);
    expect((await api.delete(`${PROGRAMS}/${mine.program_id}`, { token: a.token })).status).toBe(404);
    expect(
      (await api.patch(`${PROGRAMS}/${mine.program_id}`, { token: a.token, body: { title: 'x' } })).status,
    ).toBe(404);
    // The freed time takes a new program.
    expect((await create(a, program({ start_time: `${YEAR}-01-08T10:00:00Z` }))).status).toBe(201);
    expect((await api.delete(`${PROGRAMS}/${mine.program_id}`)).status).toBe(401);
  });
});

describe('PATCH /studio/profile', () => {
  it('changes name, description, avatar and category as GET /creators/{id} shows them, and nothing else', async () => {
    const me = await studioCreator(api, 'music');
    const userBlock = async () => {
      const res = await api.get(`/creators/${me.creatorId}`);
      expect(res.status).toBe(200);
      return res.body.data.find((block: { type: string }) => block.type === 'user');
    };
    const before = await userBlock();
    const profileKey = creatorKey(me.creatorId);
    const storedBefore = (await db.send(new GetCommand({ TableName: tableName(), Key: profileKey }))).Item!;
    const res = await api.patch('/studio/profile', {
      token: me.token,
      body: {
        creator_name: '  Ada Lovelace ',
        description: 'Engines and poems.',
        avatar_url: 'https://images.example.net/avatars/ada.jpg',
        category: 'lifestyle',
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      creator_id: me.creatorId,
      creator_name: 'Ada Lovelace',
      handle: me.handle,
      initials: 'AL',
      description: 'Engines and poems.',
      avatar_url: 'https://images.example.net/avatars/ada.jpg',
      category: 'lifestyle',
      tier: 'silver',
      is_featured: false,
      is_hot: false,
    });
    const firstVersion = res.body.data.version;
    expect(firstVersion).toBe(Number(storedBefore.version ?? 0) + 1);
    const storedAfter = (await db.send(new GetCommand({ TableName: tableName(), Key: profileKey }))).Item!;
    expect(storedAfter).toEqual({
      ...storedBefore,
      name: 'Ada Lovelace',
      initials: 'AL',
      description: 'Engines and poems.',
      avatar_url: 'https://images.example.net/avatars/ada.jpg',
      category: 'lifestyle',
      channel: { ...storedBefore.channel, channel_name: 'Ada Lovelace Live' },
      version: firstVersion,
    });
    const channel = await api.get(`/creators/${me.creatorId}/channel/live`);
    expect(channel.body.data.channel.channel_name).toBe('Ada Lovelace Live');
    const after = await userBlock();
    expect(after).toEqual({
      ...before,
      name: 'Ada Lovelace',
      initials: 'AL',
      description: 'Engines and poems.',
      avatar_url: 'https://images.example.net/avatars/ada.jpg',
      category: 'lifestyle',
    });
    const again = await api.patch('/studio/profile', { token: me.token, body: { avatar_url: null } });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({
      avatar_url: null,
      creator_name: 'Ada Lovelace',
      version: firstVersion + 1,
    });

    for (const body of [
      {},
      { creator_name: '' },
      { creator_name: 'x'.repeat(81) },
      { description: 'x'.repeat(2001) },
      { avatar_url: 'http://cdn.example.com/a.jpg' },
      { avatar_url: 'not a url' },
      { category: 'cooking' },
      // Editorial fields are an operator's: not accepted here (an otherwise empty body).
      { tier: 'ambassador', is_featured: true, is_hot: true },
    ]) {
      const refused = await api.patch('/studio/profile', { token: me.token, body });
      expect(refused.status, JSON.stringify(body)).toBe(422);
    }
    expect((await userBlock()).tier).toBe(before.tier);
    expect((await api.patch('/studio/profile', { body: { description: 'x' } })).status).toBe(401);
    const token = (await issueAccessToken(`acc_${randomUUID().replace(/-/g, '').slice(0, 16)}`, new Date()))
      .token;
    expect((await api.patch('/studio/profile', { token, body: { description: 'x' } })).status).toBe(403);
  });
});
