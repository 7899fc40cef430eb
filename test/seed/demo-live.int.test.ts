import { randomUUID } from 'node:crypto';
import { ListStreamsCommand } from '@aws-sdk/client-ivs';
import { GetCommand } from '../../shared/db/document.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { creatorKey } from '../../shared/creators/creator-repository.ts';
import { db } from '../../shared/db/client.ts';
import { tableName } from '../../shared/db/table.ts';
import { roomLookupItem } from '../../shared/chat/chat-repository.ts';
import { ivsChannelKey } from '../../shared/ivs/channel-repository.ts';
import { ivsClient } from '../../shared/ivs/client.ts';
import { issueAccessToken } from '../../shared/identity/access-token.ts';
import { generateCatalog } from '../../scripts/seed/generate.ts';
import { type TestApi, testApi } from '../support/api.ts';

/**
 * The demo channels the seed shows live are live through IVS (scripts/local/ivs/demo-channels.ts):
 * a channel in the IVS stand-in, a stream on it, and the live state the IVS event function made
 * of its events, with the seed's titles and start times.
 */
let api: TestApi;
let catalog: ReturnType<typeof generateCatalog>;
beforeAll(async () => {
  api = await testApi();
  // The catalogue the global setup seeded (seed 42 at seededAt).
  catalog = generateCatalog({ now: api.seededAt, seed: 42 });
});

/** IVS event times are whole seconds. */
const toSecond = (iso: string) => new Date(Math.floor(Date.parse(iso) / 1000) * 1000).toISOString();

describe('the seed’s live channels', () => {
  it('are live on IVS channels of their own, with the seed’s titles and start times', async () => {
    const seededLive = catalog.creators.filter((c) => c.live);
    expect(seededLive.length).toBeGreaterThan(50);
    const streams = new Map(
      ((await ivsClient().send(new ListStreamsCommand({ maxResults: 100 }))).streams ?? []).map((s) => [
        s.channelArn,
        s,
      ]),
    );
    for (const seeded of seededLive) {
      const item = (await db.send(new GetCommand({ TableName: tableName(), Key: creatorKey(seeded.id) })))
        .Item!;
      expect(item.ivs, seeded.id).toMatchObject({ channel_arn: expect.stringMatching(/^arn:aws:ivs:/) });
      const lookup = await db.send(
        new GetCommand({ TableName: tableName(), Key: ivsChannelKey(item.ivs.channel_arn) }),
      );
      expect(lookup.Item?.creator_id).toBe(seeded.id);
      // The reducer's live state: IVS's stream id, the seed's title (live_title) and start time.
      const stream = streams.get(item.ivs.channel_arn);
      expect(stream?.state, seeded.id).toBe('LIVE');
      expect(item.live_title).toBe(seeded.live!.title);
      expect(item.live).toMatchObject({
        stream_id: stream!.streamId,
        title: seeded.live!.title,
        started_at: toSecond(seeded.live!.started_at),
      });
      expect(stream!.startTime!.getTime()).toBe(Date.parse(seeded.live!.started_at));
    }
  });

  it('show in the live lists and play from the IVS stand-in; the others stay offline', async () => {
    const seededLive = catalog.creators.filter((c) => c.live);
    const listed = new Set<string>();
    for (let page = 1; ; page++) {
      const res = await api.get(`/creators/live?page=${page}&limit=100`);
      for (const c of res.body.data.creators) listed.add(c.id);
      if (page >= res.body.meta_data.total_pages) break;
    }
    for (const seeded of seededLive) expect(listed.has(seeded.id), seeded.id).toBe(true);
    const gated = seededLive[0]!;
    const status = await api.get(`/creators/${gated.id}/channel/live`);
    expect(status.body.data.channel.stream).toMatchObject({
      stream_id: expect.stringMatching(/^st-/),
      title: gated.live!.title,
      started_at: toSecond(gated.live!.started_at),
    });
    expect(status.body.data.channel.stream.stream_url.startsWith(`${process.env.IVS_ENDPOINT}/`)).toBe(true);
    for (const offline of catalog.creators.filter((c) => !c.live).slice(0, 20))
      expect(listed.has(offline.id), offline.id).toBe(false);
  });

  it('each have their chat room, as POST /studio/channel makes one: a viewer chats at once', async () => {
    const seededLive = catalog.creators.filter((c) => c.live);
    for (const seeded of seededLive) {
      const item = (await db.send(new GetCommand({ TableName: tableName(), Key: creatorKey(seeded.id) })))
        .Item!;
      expect(item.ivs.chat_room_arn, seeded.id).toMatch(/^arn:aws:ivschat:[^:]+:\d+:room\//);
      const { PK, SK } = roomLookupItem(item.ivs.chat_room_arn, seeded.id);
      const lookup = await db.send(new GetCommand({ TableName: tableName(), Key: { PK, SK } }));
      expect(lookup.Item?.creator_id, seeded.id).toBe(seeded.id);
    }
    const open = seededLive.find((c) => !c.channel.requires_subscription)!;
    const token = (await issueAccessToken(`acc_${randomUUID()}`, new Date())).token;
    const chat = await api.post(`/creators/${open.id}/channel/chat/token`, { token, body: {} });
    expect(chat.status, JSON.stringify(chat.body)).toBe(200);
    expect(chat.body.data).toMatchObject({ capabilities: ['SEND_MESSAGE'], token: expect.any(String) });
  });
});
