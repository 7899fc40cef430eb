import { GetCommand, UpdateCommand } from '../../shared/db/document.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { creatorKey } from '../../shared/creators/creator-repository.ts';
import { db } from '../../shared/db/client.ts';
import { tableName } from '../../shared/db/table.ts';
import { publishAudiences } from '../../shared/watch/audience-publisher.ts';
import type { PublishedCreator } from '../../shared/creators/creator-repository.ts';
import { publishedViewers } from '../../shared/watch/watch-sessions.ts';
import { recordOf } from '../../shared/db/record.ts';
import { BUCKET_SECONDS, channelAudience, countPresence } from '../../shared/audience/viewer-counter.ts';
import { type TestApi, testApi } from '../support/api.ts';
import { studioCreator } from '../support/studio.ts';
import { waitFor } from '../support/wait.ts';

let api: TestApi;
beforeAll(async () => {
  api = await testApi();
});

interface LiveRow {
  id: string;
  watching_now: number;
}

/** Every page of `GET /creators/live`. */
const liveList = async (): Promise<LiveRow[]> => {
  const rows: LiveRow[] = [];
  for (let page = 1; ; page++) {
    const res = await api.get(`/creators/live?page=${page}&limit=50`);
    expect(res.status).toBe(200);
    rows.push(...res.body.data.creators);
    if (page >= res.body.meta_data.total_pages) return rows;
  }
};

/** A creator who signed up, made live the way the IVS reducer does it (a write of its item). */
const liveCreator = async () => {
  const creator = await studioCreator(api, 'gaming');
  await db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: creatorKey(creator.creatorId),
      UpdateExpression: 'SET live = :live ADD version :one',
      ExpressionAttributeValues: {
        ':one': 1,
        ':live': {
          stream_id: `st_${creator.creatorId}`,
          title: 'Audience test',
          started_at: new Date().toISOString(),
          thumbnail_url: 'https://cdn.example.com/live/t.jpg',
        },
      },
    }),
  );
  const channelId = `ch_${creator.creatorId.replace(/^acc_/, '')}`;
  return { ...creator, channelId };
};

const stored = async (creatorId: string) =>
  (
    await db.send(
      new GetCommand({ TableName: tableName(), Key: creatorKey(creatorId), ConsistentRead: true }),
    )
  ).Item;

const rowOf = (rows: LiveRow[], id: string) => rows.find((r) => r.id === id);

describe('watching_now in the live lists comes from the live counters', () => {
  it('publishes the last complete bucket, re-ranks the live list, and publishes 0 when viewers leave', async () => {
    const [busy, quiet] = await Promise.all([liveCreator(), liveCreator()]);
    await waitFor(async () => {
      const rows = await liveList();
      return rowOf(rows, busy.creatorId) !== undefined && rowOf(rows, quiet.creatorId) !== undefined;
    }, 'both creators in the live list');

    // A bucket well away from the real clock (so no other run publishes it): 5 and 2 viewers.
    const now = new Date(Date.UTC(2031, 0, 1, 12, 0, 15));
    const previous = new Date(now.getTime() - BUCKET_SECONDS * 1000);
    await Promise.all([
      ...Array.from({ length: 5 }, () => countPresence(busy.channelId, 'web', previous)),
      ...Array.from({ length: 2 }, () => countPresence(quiet.channelId, 'ios', previous)),
    ]);
    const report = await publishAudiences(now);
    expect(report.published).toBeGreaterThanOrEqual(2);
    // What the viewers endpoint's counter says for the same moment.
    expect((await channelAudience(busy.channelId, now)).current.total).toBe(5);

    // The list shows the creators' counts at once and their new places once the projector ran.
    await waitFor(async () => {
      const rows = await liveList();
      const at = (id: string) => rows.findIndex((r) => r.id === id);
      return (
        rowOf(rows, busy.creatorId)?.watching_now === 5 &&
        rowOf(rows, quiet.creatorId)?.watching_now === 2 &&
        at(busy.creatorId) < at(quiet.creatorId)
      );
    }, 'the counts and order in the live list');

    // What a heartbeat answers (it reads no counters): the published count, and its change.
    const heartbeatViewers = async (id: string) =>
      publishedViewers(recordOf<PublishedCreator>((await stored(id))!));
    expect(await heartbeatViewers(busy.creatorId)).toEqual({
      watching_now: 5,
      watching_now_formatted: '5',
      delta: 5,
    });

    // A repeated or late run of the same or an older bucket moves nothing.
    await countPresence(busy.channelId, 'web', previous);
    await publishAudiences(now);
    await publishAudiences(previous);
    expect(await stored(busy.creatorId)).toMatchObject({ watching_now: 5 });

    // The next bucket: the busy channel's viewers left, the quiet one kept one.
    const later = new Date(now.getTime() + BUCKET_SECONDS * 1000);
    await countPresence(quiet.channelId, 'ios', now);
    await publishAudiences(later);
    await waitFor(async () => {
      const rows = await liveList();
      const at = (id: string) => rows.findIndex((r) => r.id === id);
      return (
        rowOf(rows, busy.creatorId)?.watching_now === 0 &&
        rowOf(rows, quiet.creatorId)?.watching_now === 1 &&
        at(quiet.creatorId) < at(busy.creatorId)
      );
    }, 'the counts and order of the next bucket');
    // The heartbeat's view: never below 1 while live (the caller watches), the drop as its delta.
    expect(await heartbeatViewers(busy.creatorId)).toMatchObject({ watching_now: 1, delta: -5 });
    expect(await heartbeatViewers(quiet.creatorId)).toMatchObject({ watching_now: 1, delta: -1 });
    // A count that stopped moving is written once more, so the delta goes back to 0.
    await publishAudiences(new Date(later.getTime() + BUCKET_SECONDS * 1000));
    expect(await heartbeatViewers(busy.creatorId)).toMatchObject({ watching_now: 1, delta: 0 });
  });

  it('leaves creators that are not live alone', async () => {
    const offline = await studioCreator(api, 'gaming');
    const now = new Date(Date.UTC(2031, 0, 2, 12, 0, 15));
    const channelId = `ch_${offline.creatorId.replace(/^acc_/, '')}`;
    await countPresence(channelId, 'web', new Date(now.getTime() - BUCKET_SECONDS * 1000));
    await publishAudiences(now);
    const item = await stored(offline.creatorId);
    expect(item?.live).toBeNull();
    expect(item).not.toHaveProperty('watching_bucket');
  });
});
