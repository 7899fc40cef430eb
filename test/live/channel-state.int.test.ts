import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand } from '../../shared/db/document.ts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { handler } from '../../functions/live/ivs-event.ts';
import { captureLog } from '../support/log-lines.ts';
import type { CreatorRecord } from '../../shared/catalog/model.ts';
import { allRankedIdsOf, readRankedPage } from '../../shared/catalog/ranked-list.ts';
import { CREATOR_LISTS } from '../../shared/creators/creator-ranking.ts';
import { creatorFromAccount } from '../../shared/identity/creator-from-account.ts';
import { creatorItem, creatorKey } from '../../shared/creators/creator-repository.ts';
import { db } from '../../shared/db/client.ts';
import { ivsChannelItem } from '../../shared/ivs/channel-repository.ts';
import { listLiveStreams } from '../../shared/channels/live-streams.ts';
import { tableName } from '../../shared/db/table.ts';
import {
  type IvsOutcome,
  type LiveStream,
  applyIvsEvent,
  reconcileLiveChannels,
  reconcileTimeMs,
} from '../../shared/channels/channel-state.ts';
import { type IvsEvent, parseIvsEvent } from '../../shared/channels/ivs-events.ts';
import { cdnUrl } from '../../shared/catalog/media-urls.ts';
import { waitFor } from '../support/wait.ts';

afterEach(() => vi.restoreAllMocks());

interface Channel {
  creatorId: string;
  name: string;
  channelArn: string;
}

/** A creator whose channel is on IVS, as provisioning leaves it: the `ivs` attribute and the lookup item. */
const provision = async (options: { liveTitle?: string; withoutIvs?: boolean } = {}): Promise<Channel> => {
  const suffix = randomUUID().replace(/-/g, '').slice(0, 12);
  const creatorId = `acc_ivs_${suffix}`;
  const name = `Ivs ${suffix}`;
  const record = creatorFromAccount(
    { account_id: creatorId, creator_name: name, handle: `ivs_${suffix}`, category: 'gaming' },
    900_000 + Math.floor(Math.random() * 90_000),
    new Date(),
  );
  const channelArn = `arn:aws:ivs:us-west-2:123456789012:channel/${suffix}`;
  await db.send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...creatorItem(record),
        version: 1,
        ...(options.withoutIvs
          ? {}
          : {
              ivs: {
                channel_arn: channelArn,
                playback_url: `https://a1b2c3.us-west-2.playback.live-video.net/api/video/v1/us-west-2.123456789012.channel.${suffix}.m3u8`,
                ingest_endpoint: 'a1b2c3.global-contribute.live-video.net',
              },
            }),
        ...(options.liveTitle ? { live_title: options.liveTitle } : {}),
      },
    }),
  );
  await db.send(
    new PutCommand({
      TableName: tableName(),
      Item: ivsChannelItem(channelArn, creatorId),
    }),
  );
  return { creatorId, name, channelArn };
};

type StateEvent = 'Stream Start' | 'Stream End' | 'Stream Failure' | 'Starvation Start' | 'Starvation End';

/** An IVS document as EventBridge delivers it (the guide's shape), run through the parser. */
const ivsEvent = (channelArn: string, name: StateEvent, streamId: string, at: number): IvsEvent => {
  const parsed = parseIvsEvent({
    version: '0',
    id: randomUUID(),
    'detail-type': name.startsWith('Starvation') ? 'IVS Stream Health Change' : 'IVS Stream State Change',
    source: 'aws.ivs',
    account: '123456789012',
    time: new Date(at).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    region: 'us-west-2',
    resources: [channelArn],
    detail: { event_name: name, channel_name: 'test', stream_id: streamId },
  });
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.event;
};

/** Whole seconds, as IVS stamps its events; far enough back for a reconcile at "now" to be newer. */
const T0 = Math.floor((Date.now() - 10 * 60_000) / 1000) * 1000;
const at = (seconds: number) => T0 + seconds * 1000;

type Stored = CreatorRecord & {
  version: number;
  stream_health?: string;
  live_state_ms?: number;
  health_ms?: number;
};
const stored = async (creatorId: string): Promise<Stored> => {
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName(), Key: creatorKey(creatorId), ConsistentRead: true }),
  );
  return Item as Stored;
};

const silent = { warn: vi.fn() };

/** The first ids of the live list (the projector's view), most watched first. */
const liveListIds = async (limit = 20): Promise<string[]> =>
  (await readRankedPage(CREATOR_LISTS.live, 1, limit)).ids;

/** Is the creator in the live list (any of the list's entries names it)? */
const inLiveList = async (creatorId: string) =>
  (await allRankedIdsOf(CREATOR_LISTS.live)).includes(creatorId);

describe('the IVS reducer (applyIvsEvent) against DynamoDB Local', () => {
  it('Stream Start makes the creator live (and listed), Stream End offline, one version each', async () => {
    const channel = await provision();
    const streamId = `st-${randomUUID()}`;
    const before = await stored(channel.creatorId);

    expect(
      await applyIvsEvent(ivsEvent(channel.channelArn, 'Stream Start', streamId, at(0)), silent),
    ).toEqual({
      kind: 'went-live',
      creatorId: channel.creatorId,
      streamId,
    });
    const live = await stored(channel.creatorId);
    expect(live.live).toEqual({
      stream_id: streamId,
      title: `${channel.name} is live`,
      started_at: new Date(at(0)).toISOString(),
      // No recording has started yet and the creator has no avatar: the CDN's generic live still
      // (Recording Start sets the recording's latest still; test/live/watch-playback.int.test.ts).
      thumbnail_url: `${cdnUrl()}/thumbnails/live.jpg`,
    });
    expect(live.stream_health).toBe('healthy');
    expect(live.live_state_ms).toBe(at(0));
    expect(live.version).toBe(before.version + 1);
    // The projector re-derives the live list from the creator item.
    await waitFor(() => inLiveList(channel.creatorId), 'the creator in the live list', 10_000);

    expect(
      await applyIvsEvent(ivsEvent(channel.channelArn, 'Stream End', streamId, at(60)), silent),
    ).toMatchObject({
      kind: 'went-offline',
    });
    const offline = await stored(channel.creatorId);
    expect(offline.live).toBeNull();
    expect(offline.stream_health).toBeUndefined();
    expect(offline.version).toBe(before.version + 2);
    await waitFor(
      async () => !(await inLiveList(channel.creatorId)),
      'the creator out of the live list',
      10_000,
    );
  });

  it("titles the stream with the creator's live_title when set; Stream Failure ends it like Stream End", async () => {
    const channel = await provision({ liveTitle: 'Speedrun night' });
    const streamId = `st-${randomUUID()}`;
    await applyIvsEvent(ivsEvent(channel.channelArn, 'Stream Start', streamId, at(0)), silent);
    expect((await stored(channel.creatorId)).live?.title).toBe('Speedrun night');
    expect(
      (await applyIvsEvent(ivsEvent(channel.channelArn, 'Stream Failure', streamId, at(5)), silent)).kind,
    ).toBe('went-offline');
    expect((await stored(channel.creatorId)).live).toBeNull();
  });

  it('applies a duplicate (the same event twice, same id) once', async () => {
    const channel = await provision();
    const streamId = `st-${randomUUID()}`;
    const start = ivsEvent(channel.channelArn, 'Stream Start', streamId, at(0));
    const before = await stored(channel.creatorId);
    expect((await applyIvsEvent(start, silent)).kind).toBe('went-live');
    expect(await applyIvsEvent(start, silent)).toEqual({
      kind: 'stale',
      creatorId: channel.creatorId,
      streamId,
      eventName: 'Stream Start',
    });
    expect((await stored(channel.creatorId)).version).toBe(before.version + 1);
  });

  it('stays offline when a stream End arrives before its Start (also within the same second)', async () => {
    for (const endAfter of [30, 0]) {
      const channel = await provision();
      const streamId = `st-${randomUUID()}`;
      await applyIvsEvent(ivsEvent(channel.channelArn, 'Stream End', streamId, at(endAfter)), silent);
      const late = await applyIvsEvent(ivsEvent(channel.channelArn, 'Stream Start', streamId, at(0)), silent);
      expect(late.kind).toBe('stale');
      expect((await stored(channel.creatorId)).live).toBeNull();
    }
  });

  it("goes live with stream 2 when stream 1's End is delivered after stream 2's Start", async () => {
    const channel = await provision();
    const [first, second] = [`st-1-${randomUUID()}`, `st-2-${randomUUID()}`];
    await applyIvsEvent(ivsEvent(channel.channelArn, 'Stream Start', first, at(0)), silent);
    await applyIvsEvent(ivsEvent(channel.channelArn, 'Stream Start', second, at(120)), silent);
    const lateEnd = await applyIvsEvent(ivsEvent(channel.channelArn, 'Stream End', first, at(100)), silent);
    expect(lateEnd.kind).toBe('stale');
    expect((await stored(channel.creatorId)).live?.stream_id).toBe(second);
  });

  it('goes live with stream 2 when stream 1 ended in the same second, whichever came first', async () => {
    for (const order of ['end first', 'start first'] as const) {
      const channel = await provision();
      const [first, second] = [`st-1-${randomUUID()}`, `st-2-${randomUUID()}`];
      await applyIvsEvent(ivsEvent(channel.channelArn, 'Stream Start', first, at(0)), silent);
      const end = ivsEvent(channel.channelArn, 'Stream End', first, at(60));
      const start = ivsEvent(channel.channelArn, 'Stream Start', second, at(60));
      for (const event of order === 'end first' ? [end, start] : [start, end])
        await applyIvsEvent(event, silent);
      expect((await stored(channel.creatorId)).live?.stream_id, order).toBe(second);
    }
  });

  it('orders health changes by time, for the current stream only', async () => {
    const channel = await provision();
    const streamId = `st-${randomUUID()}`;
    const health = async () => (await stored(channel.creatorId)).stream_health;
    await applyIvsEvent(ivsEvent(channel.channelArn, 'Stream Start', streamId, at(0)), silent);

    expect(
      (await applyIvsEvent(ivsEvent(channel.channelArn, 'Starvation Start', streamId, at(10)), silent)).kind,
    ).toBe('health-changed');
    expect(await health()).toBe('starving');
    // End of starvation, then its Start delivered late: stays healthy.
    await applyIvsEvent(ivsEvent(channel.channelArn, 'Starvation End', streamId, at(30)), silent);
    const late = await applyIvsEvent(
      ivsEvent(channel.channelArn, 'Starvation Start', streamId, at(20)),
      silent,
    );
    expect(late.kind).toBe('stale');
    expect(await health()).toBe('healthy');
    // Another stream's health is not this stream's.
    const other = await applyIvsEvent(
      ivsEvent(channel.channelArn, 'Starvation Start', 'st-other', at(40)),
      silent,
    );
    expect(other.kind).toBe('stale');
    expect(await health()).toBe('healthy');
    // Nor is an ended stream's.
    await applyIvsEvent(ivsEvent(channel.channelArn, 'Stream End', streamId, at(50)), silent);
    expect(
      (await applyIvsEvent(ivsEvent(channel.channelArn, 'Starvation Start', streamId, at(55)), silent)).kind,
    ).toBe('stale');
    expect(await health()).toBeUndefined();
  });

  it('ignores, with a warning, the events of a channel no creator owns', async () => {
    const warn = vi.fn();
    const channelArn = `arn:aws:ivs:us-west-2:123456789012:channel/deleted-${randomUUID()}`;
    const outcome = await applyIvsEvent(ivsEvent(channelArn, 'Stream Start', 'st-x', at(0)), { warn });
    expect(outcome).toEqual({
      kind: 'ignored',
      reason: 'unknown-channel',
      eventName: 'Stream Start',
      channelArn,
    });
    expect(warn).toHaveBeenCalledWith(
      expect.stringContaining('no creator owns'),
      expect.objectContaining({ channelArn }),
    );
  });

  it('never writes a creator without an IVS channel, whatever a lookup says', async () => {
    const channel = await provision({ withoutIvs: true });
    const before = await stored(channel.creatorId);
    const warn = vi.fn();
    const start = await applyIvsEvent(ivsEvent(channel.channelArn, 'Stream Start', 'st-x', at(0)), { warn });
    expect(start).toMatchObject({ kind: 'ignored', reason: 'unknown-channel' });
    expect(warn).toHaveBeenCalledTimes(1);
    expect(
      (await applyIvsEvent(ivsEvent(channel.channelArn, 'Stream End', 'st-x', at(10)), silent)).kind,
    ).toBe('stale');
    expect(await stored(channel.creatorId)).toEqual(before);
  });

  it('ends consistent when the same events arrive concurrently, one version per applied change', async () => {
    const channel = await provision();
    const [first, second] = [`st-1-${randomUUID()}`, `st-2-${randomUUID()}`];
    const events = [
      ivsEvent(channel.channelArn, 'Stream Start', first, at(0)),
      ivsEvent(channel.channelArn, 'Starvation Start', first, at(10)),
      ivsEvent(channel.channelArn, 'Stream End', first, at(20)),
      ivsEvent(channel.channelArn, 'Stream Start', second, at(30)),
    ];
    const before = await stored(channel.creatorId);
    // Every event three times, all at once.
    const outcomes = await Promise.all(
      [...events, ...events, ...events].map((event) => applyIvsEvent(event, silent)),
    );
    const applied = outcomes.filter((outcome: IvsOutcome) => outcome.kind !== 'stale');
    const after = await stored(channel.creatorId);
    expect(after.live?.stream_id).toBe(second);
    expect(after.live?.started_at).toBe(new Date(at(30)).toISOString());
    expect(after.stream_health).toBe('healthy');
    expect(after.live_state_ms).toBe(at(30));
    expect(after.version - before.version).toBe(applied.length);
    // A duplicate is never applied twice: at most one of each event's three copies, and stream 2's Start once.
    expect(applied.length).toBeLessThanOrEqual(events.length);
    expect(applied.filter((o) => o.kind === 'went-live' && o.streamId === second)).toHaveLength(1);
  });

  it('reports a Recording End (and a failure) without writing', async () => {
    const channel = await provision();
    const before = await stored(channel.creatorId);
    const recording = (status: string, reason: string, durationMs: number) => {
      const parsed = parseIvsEvent({
        version: '0',
        id: randomUUID(),
        'detail-type': 'IVS Recording State Change',
        source: 'aws.ivs',
        account: '123456789012',
        time: '2026-11-24T07:51:32Z',
        region: 'us-west-2',
        resources: [channel.channelArn],
        detail: {
          channel_name: 'test',
          stream_id: 'st-rec',
          recording_status: status,
          recording_status_reason: reason,
          recording_s3_bucket_name: 'recordings-bucket',
          recording_s3_key_prefix: 'ivs/v1/123456789012/abc/2026/11/24/7/0/rec1',
          recording_duration_ms: durationMs,
        },
      });
      if (!parsed.ok) throw new Error(parsed.error);
      return parsed.event;
    };
    expect(await applyIvsEvent(recording('Recording End', '', 3_000_000), silent)).toEqual({
      kind: 'recording-ended',
      creatorId: channel.creatorId,
      bucket: 'recordings-bucket',
      prefix: 'ivs/v1/123456789012/abc/2026/11/24/7/0/rec1',
      streamId: 'st-rec',
      durationMs: 3_000_000,
    });
    expect(
      await applyIvsEvent(recording('Recording End Failure', 'InternalServerException', 0), silent),
    ).toEqual({
      kind: 'recording-failed',
      creatorId: channel.creatorId,
      streamId: 'st-rec',
      status: 'Recording End Failure',
      reason: 'InternalServerException',
    });
    expect((await stored(channel.creatorId)).version).toBe(before.version);
  });
});

describe('the reconcile against ListStreams (reconcileLiveChannels)', () => {
  const listed = (
    channel: Channel,
    streamId: string,
    health: LiveStream['health'],
    startTime: Date,
  ): LiveStream => ({
    channelArn: channel.channelArn,
    streamId,
    startTime,
    health,
    viewerCount: 3,
  });

  /**
   * The reconcile's input as ListStreams gives it: what the IVS stand-in lists now (the demo
   * catalogue's live channels, other tests' broadcasts) plus `streams`. A list without them would
   * take every creator live on IVS offline, as it would on AWS.
   */
  const ivsListing = async (...streams: LiveStream[]): Promise<LiveStream[]> => [
    ...(await listLiveStreams()),
    ...streams,
  ];

  it('takes offline a creator whose Stream End was lost; the late End is then stale', async () => {
    const channel = await provision();
    const streamId = `st-${randomUUID()}`;
    await applyIvsEvent(ivsEvent(channel.channelArn, 'Stream Start', streamId, at(0)), silent);
    await waitFor(() => inLiveList(channel.creatorId), 'the creator in the live list', 10_000);
    const before = await stored(channel.creatorId);
    // The demo catalogue's live creators broadcast on the IVS stand-in: IVS lists them, so they stay live.
    const demo = (await Promise.all((await liveListIds()).map(stored))).filter(
      (c) => c.live && 'ivs' in c && c.id.startsWith('cr_'),
    );
    expect(demo.length).toBeGreaterThan(0);

    const now = new Date();
    const report = await reconcileLiveChannels(await ivsListing(), now, silent);
    expect(report.wentOffline).toBeGreaterThanOrEqual(1);
    expect(report.checked).toBeGreaterThanOrEqual(1);
    const after = await stored(channel.creatorId);
    expect(after.live).toBeNull();
    expect(after.live_state_ms).toBe(reconcileTimeMs(now));
    expect(after.version).toBe(before.version + 1);
    expect(
      (await applyIvsEvent(ivsEvent(channel.channelArn, 'Stream End', streamId, at(600)), silent)).kind,
    ).toBe('stale');
    for (const creator of demo) expect((await stored(creator.id)).live, creator.id).not.toBeNull();
  });

  it('brings live a channel whose Start was lost, refreshes its health, and is idempotent', async () => {
    const channel = await provision();
    const streamId = `st-${randomUUID()}`;
    const startTime = new Date(at(0) + 250);
    const before = await stored(channel.creatorId);

    const now = new Date();
    const report = await reconcileLiveChannels(
      await ivsListing(listed(channel, streamId, 'STARVING', startTime)),
      now,
      silent,
    );
    expect(report).toMatchObject({ wentLive: 1, healthChanged: 0 });
    const live = await stored(channel.creatorId);
    expect(live.live).toMatchObject({ stream_id: streamId, started_at: startTime.toISOString() });
    expect(live.stream_health).toBe('starving');
    expect(live.version).toBe(before.version + 1);
    // The lost Start, delivered now, is older than what the reconcile saw.
    expect(
      (await applyIvsEvent(ivsEvent(channel.channelArn, 'Stream Start', streamId, at(0)), silent)).kind,
    ).toBe('stale');

    const again = await reconcileLiveChannels(
      await ivsListing(listed(channel, streamId, 'STARVING', startTime)),
      new Date(),
      silent,
    );
    expect(again).toMatchObject({ wentLive: 0, healthChanged: 0 });
    // No write: the reconcile's guards are as the first one left them. (Not the item's version:
    // the projector's counters and windows also add to it, on their own time; at load ~15 one
    // landed between the two reads, 2026-11-30.)
    const unchanged = await stored(channel.creatorId);
    expect(unchanged.live_state_ms).toBe(live.live_state_ms);
    expect(unchanged.health_ms).toBe(live.health_ms);

    // A reconcile's time is whole seconds (reconcileTimeMs): the next run is a second later at least.
    await new Promise((resolve) => setTimeout(resolve, 1005 - (Date.now() % 1000)));
    const healed = await reconcileLiveChannels(
      await ivsListing(listed(channel, streamId, 'HEALTHY', startTime)),
      new Date(),
      silent,
    );
    expect(healed).toMatchObject({ wentLive: 0, healthChanged: 1 });
    const healthy = await stored(channel.creatorId);
    expect(healthy.stream_health).toBe('healthy');
    expect(healthy.health_ms).toBeGreaterThan(live.health_ms!);
    expect(healthy.live_state_ms).toBe(live.live_state_ms);
  });

  it('replaces a stream IVS no longer runs with the one it lists', async () => {
    const channel = await provision();
    const [old, current] = [`st-old-${randomUUID()}`, `st-new-${randomUUID()}`];
    await applyIvsEvent(ivsEvent(channel.channelArn, 'Stream Start', old, at(0)), silent);
    const report = await reconcileLiveChannels(
      await ivsListing(listed(channel, current, 'UNKNOWN', new Date(at(300)))),
      new Date(),
      silent,
    );
    expect(report.wentLive).toBe(1);
    const after = await stored(channel.creatorId);
    expect(after.live?.stream_id).toBe(current);
    expect(after.stream_health).toBe('healthy');
  });

  it('never overwrites a change newer than its own time', async () => {
    const channel = await provision();
    const streamId = `st-${randomUUID()}`;
    // Stream End at T0+60 s recorded; a reconcile that asked IVS before that saw the stream live.
    await applyIvsEvent(ivsEvent(channel.channelArn, 'Stream Start', streamId, at(0)), silent);
    await applyIvsEvent(ivsEvent(channel.channelArn, 'Stream End', streamId, at(60)), silent);
    const report = await reconcileLiveChannels(
      await ivsListing(listed(channel, streamId, 'HEALTHY', new Date(at(0)))),
      new Date(at(30)),
      silent,
    );
    expect(report.wentLive).toBe(0);
    expect((await stored(channel.creatorId)).live).toBeNull();
  });

  it('leaves an event of its own second alone: a stream that ended after the listing stays offline', async () => {
    // IVS stamps events with whole seconds. The End below happened at at(60) + 0.9 s, after
    // ListStreams answered at at(60) + 0.5 s (which still listed the stream): its time, at(60),
    // is earlier than the reconcile's `now`, but the End is the later truth.
    const channel = await provision();
    const streamId = `st-${randomUUID()}`;
    await applyIvsEvent(ivsEvent(channel.channelArn, 'Stream Start', streamId, at(0)), silent);
    await applyIvsEvent(ivsEvent(channel.channelArn, 'Stream End', streamId, at(60)), silent);
    const report = await reconcileLiveChannels(
      await ivsListing(listed(channel, streamId, 'HEALTHY', new Date(at(0)))),
      new Date(at(60) + 500),
      silent,
    );
    expect(report.wentLive).toBe(0);
    expect((await stored(channel.creatorId)).live).toBeNull();
    // A Start of the same second survives a listing that missed it, too.
    const next = `st-${randomUUID()}`;
    await applyIvsEvent(ivsEvent(channel.channelArn, 'Stream Start', next, at(120)), silent);
    // The reconcile looks at the creators in the live list (the projector's view).
    await waitFor(() => inLiveList(channel.creatorId), 'the creator in the live list', 10_000);
    await reconcileLiveChannels(await ivsListing(), new Date(at(120) + 999), silent);
    expect((await stored(channel.creatorId)).live?.stream_id).toBe(next);
    // An event of an earlier second happened before the listing: the listing wins.
    await reconcileLiveChannels(await ivsListing(), new Date(at(121)), silent);
    expect((await stored(channel.creatorId)).live).toBeNull();
  });

  it('warns about a listed channel no creator owns', async () => {
    const warn = vi.fn();
    const channelArn = `arn:aws:ivs:us-west-2:123456789012:channel/orphan-${randomUUID()}`;
    const report = await reconcileLiveChannels(
      await ivsListing({
        channelArn,
        streamId: 'st-o',
        startTime: new Date(),
        health: 'HEALTHY',
        viewerCount: 0,
      }),
      new Date(),
      { warn },
    );
    expect(report.wentLive).toBe(0);
    expect(warn).toHaveBeenCalledWith(expect.any(String), { channelArn });
  });
});

describe('the EventBridge handler (functions/live/ivs-event.ts)', () => {
  it('applies a valid document and logs one JSON line', async () => {
    const channel = await provision();
    const log = captureLog();
    const doc = {
      version: '0',
      id: 'evt-1',
      'detail-type': 'IVS Stream State Change',
      source: 'aws.ivs',
      account: '123456789012',
      time: new Date(at(0)).toISOString(),
      region: 'us-west-2',
      resources: [channel.channelArn],
      detail: { event_name: 'Stream Start', channel_name: 'test', stream_id: 'st-h' },
    };
    expect(await handler(doc)).toMatchObject({ kind: 'went-live', creatorId: channel.creatorId });
    expect(log.lines('ivs event')).toHaveLength(1);
    expect(log.lines('ivs event')[0]).toMatchObject({
      level: 'INFO',
      message: 'ivs event',
      eventId: 'evt-1',
      detailType: 'IVS Stream State Change',
      kind: 'went-live',
    });
  });

  it('logs a session event as ignored (INFO) and an account-wide limit breach as a WARN', async () => {
    const channel = await provision();
    const log = captureLog();
    const envelope = {
      version: '0',
      id: 'evt-2',
      source: 'aws.ivs',
      account: '123456789012',
      time: '2026-11-24T07:00:00Z',
      region: 'us-west-2',
    };
    await handler({
      ...envelope,
      'detail-type': 'IVS Stream State Change',
      resources: [channel.channelArn],
      detail: { event_name: 'Session Created', channel_name: '', stream_id: 'st-s' },
    });
    await handler({
      ...envelope,
      'detail-type': 'IVS Limit Breach',
      resources: [],
      detail: { limit_name: 'Concurrent Viewers', limit_value: 10, exceeded_by: 11, limit_unit: 'viewers' },
    });
    const lines = log.lines('ivs event');
    expect(lines).toMatchObject([
      { level: 'INFO', kind: 'ignored', reason: 'no-live-state-change', eventName: 'Session Created' },
      {
        level: 'WARN',
        kind: 'limit-breach',
        limitName: 'Concurrent Viewers',
        limitValue: 10,
        exceededBy: 11,
      },
    ]);
  });

  it('logs and returns (does not throw) on a document it cannot read', async () => {
    const log = captureLog();
    const result = await handler({
      id: 'evt-bad',
      'detail-type': 'IVS Stream State Change',
      source: 'aws.ivs',
    });
    expect(result.kind).toBe('invalid');
    expect(log.lines('ivs event')[0]).toMatchObject({
      level: 'WARN',
      kind: 'invalid',
      eventId: 'evt-bad',
    });
  });
});
