import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateChannelCommand, CreateRecordingConfigurationCommand, IvsClient } from '@aws-sdk/client-ivs';
import { GetCommand, PutCommand, UpdateCommand } from '../../shared/db/document.ts';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { handler } from '../../functions/live/ivs-event.ts';
import { audienceRow, ivsEventRow } from '../../functions/workers.ts';
import { functionContext, LOCAL_RECORDINGS_BUCKET, runAsFunction } from '../../scripts/local/aws.ts';
import { type IvsStandIn, startIvsStandIn } from '../../scripts/local/ivs/api.ts';
import { type Broadcaster, createBroadcaster } from '../../scripts/local/ivs/broadcaster.ts';
import type { CreatorRecord } from '../../shared/catalog/model.ts';
import { captureLog } from '../support/log-lines.ts';
import { creatorFromAccount } from '../../shared/identity/creator-from-account.ts';
import { createAccount, markDeleted } from '../../shared/identity/account-repository.ts';
import {
  creatorItem,
  creatorKey,
  recordCreatorModeration,
} from '../../shared/creators/creator-repository.ts';
import { db } from '../../shared/db/client.ts';
import { applyEntitlement } from '../../shared/entitlements/entitlement-repository.ts';
import { tableName } from '../../shared/db/table.ts';
import { ivsChannelItem } from '../../shared/ivs/channel-repository.ts';
import { dvrUrlOf } from '../../shared/catalog/media-urls.ts';
import type { LiveRecording } from '../../shared/catalog/model.ts';
import { recordingEpisodeId, repairLostRecordings } from '../../shared/channels/recordings.ts';
import { recordingMarkerKey } from '../../shared/ivs/recording-repository.ts';
import { entitlement } from '../support/entitlements.ts';
import { fromNewAddress, type TestApi, testApi } from '../support/api.ts';
import { waitFor } from '../support/wait.ts';
import { viaLocalCdn } from '../support/playback.ts';
import { serveMediaCdn } from '../../scripts/local/media-cdn.ts';

/**
 * Recordings (shared/channels/recordings.ts through the IVS event function, run as its Lambda: its
 * environment and IAM policy, S3 served from a temporary RECORDINGS_ROOT): Recording End makes
 * the broadcast an on-demand item of the creator, once; Recording Start makes the DVR playlist.
 */
let api: TestApi;
let root: string;
const CDN = () => process.env.CDN_URL ?? 'https://cdn.example.com';
/** `url` signed for the media CDN (shared/playback/media-signing.ts): a CloudFront custom-policy query. */
const signed = (url: string) =>
  expect.stringMatching(
    new RegExp(
      `^${url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\?(?=.*Policy=)(?=.*Signature=)(?=.*Key-Pair-Id=)`,
    ),
  );

beforeAll(async () => {
  api = await testApi();
  root = mkdtempSync(join(tmpdir(), 'recordings-'));
  process.env.RECORDINGS_ROOT = root;
});
afterAll(() => {
  delete process.env.RECORDINGS_ROOT;
  rmSync(root, { recursive: true, force: true });
});
// The function's log lines (asserted where they matter) stay out of the test output.
beforeEach(() => {
  captureLog();
});
afterEach(() => vi.restoreAllMocks());

interface Channel {
  creatorId: string;
  channelArn: string;
  channelId: string;
}

/** A creator whose channel is on IVS, as provisioning leaves it (the `ivs` attribute and the lookup). */
const provision = async (
  options: { liveTitle?: string; requiresSubscription?: boolean } = {},
): Promise<Channel> => {
  const suffix = randomUUID().replace(/-/g, '').slice(0, 12);
  const creatorId = `acc_rec_${suffix}`;
  const record: CreatorRecord = creatorFromAccount(
    { account_id: creatorId, creator_name: `Rec ${suffix}`, handle: `rec_${suffix}`, category: 'music' },
    800_000 + Math.floor(Math.random() * 90_000),
    new Date(),
  );
  record.channel.requires_subscription = options.requiresSubscription ?? false;
  const channelArn = `arn:aws:ivs:us-east-1:000000000000:channel/${suffix}`;
  await db.send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...creatorItem(record),
        version: 1,
        ivs: {
          channel_arn: channelArn,
          playback_url: `https://a1b2c3.us-east-1.playback.live-video.net/api/video/v1/us-east-1.000000000000.channel.${suffix}.m3u8`,
          ingest_endpoint: 'a1b2c3.global-contribute.live-video.net',
        },
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
  return { creatorId, channelArn, channelId: suffix };
};

/** IVS's S3 prefix of a recording of `channel` started at `at`. */
const prefixOf = (channel: Channel, at: Date) =>
  [
    'ivs/v1/000000000000',
    channel.channelId,
    at.getUTCFullYear(),
    at.getUTCMonth() + 1,
    at.getUTCDate(),
    at.getUTCHours(),
    at.getUTCMinutes(),
    randomUUID().replace(/-/g, '').slice(0, 12),
  ].join('/');

/** Writes an object of the recordings bucket (`<root>/<bucket>/<key>`, where the S3 stand-in reads). */
const putObject = (key: string, body: string) => {
  const file = join(root, LOCAL_RECORDINGS_BUCKET, key);
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, body);
};

const seconds = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

/** recording-ended.json as IVS writes it ("IVS Auto-Record to Amazon S3"). */
const endedJson = (channel: Channel, startedAt: Date, durationMs: number) => ({
  version: 'v1',
  channel_arn: channel.channelArn,
  recording_started_at: seconds(startedAt.getTime()),
  recording_ended_at: seconds(startedAt.getTime() + durationMs),
  recording_status: 'RECORDING_ENDED',
  recording_status_message: '',
  media: {
    hls: {
      duration_ms: durationMs,
      path: 'media/hls',
      playlist: 'master.m3u8',
      byte_range_playlist: 'byte-range-multivariant.m3u8',
      renditions: [
        {
          path: '720p30',
          playlist: 'playlist.m3u8',
          byte_range_playlist: 'byte-range-variant.m3u8',
          resolution_width: 1280,
          resolution_height: 720,
        },
      ],
    },
    thumbnails: { path: 'media/thumbnails', resolution_width: 1280, resolution_height: 720 },
  },
});

const startedJson = (channel: Channel, startedAt: Date) => ({
  version: 'v1',
  channel_arn: channel.channelArn,
  recording_started_at: seconds(startedAt.getTime()),
  recording_status: 'RECORDING_STARTED',
  media: {
    hls: { path: 'media/hls', playlist: 'master.m3u8', renditions: [] },
    thumbnails: { path: 'media/thumbnails' },
  },
});

/** The EventBridge document of a recording state change, as IVS sends it. */
const recordingEvent = (
  channel: Channel,
  status: 'Recording Start' | 'Recording End',
  streamId: string,
  prefix: string,
  at: number,
  durationMs = 0,
) => ({
  version: '0',
  id: randomUUID(),
  'detail-type': 'IVS Recording State Change',
  source: 'aws.ivs',
  account: '000000000000',
  time: seconds(at),
  region: 'us-east-1',
  resources: [channel.channelArn],
  detail: {
    channel_name: channel.channelId,
    stream_id: streamId,
    recording_status: status,
    recording_status_reason: '',
    recording_s3_bucket_name: LOCAL_RECORDINGS_BUCKET,
    recording_s3_key_prefix: prefix,
    recording_duration_ms: durationMs,
    recording_session_id: randomUUID(),
    ...(status === 'Recording End' ? { recording_session_stream_ids: [streamId] } : {}),
  },
});

const streamEvent = (
  channel: Channel,
  name: 'Stream Start' | 'Stream End',
  streamId: string,
  at: number,
) => ({
  version: '0',
  id: randomUUID(),
  'detail-type': 'IVS Stream State Change',
  source: 'aws.ivs',
  account: '000000000000',
  time: seconds(at),
  region: 'us-east-1',
  resources: [channel.channelArn],
  detail: { event_name: name, channel_name: channel.channelId, stream_id: streamId },
});

/** The IVS event function as EventBridge invokes it on AWS: its environment and IAM policy. */
const deliver = (event: unknown) => runAsFunction(functionContext(ivsEventRow), () => handler(event));

/** A finished recording of a new stream: its files in the bucket, its Recording End delivered. */
const record = async (channel: Channel, options: { startedAt?: Date; durationMs?: number } = {}) => {
  const startedAt = options.startedAt ?? new Date(Date.now() - 3_600_000);
  const durationMs = options.durationMs ?? 3_725_000;
  const streamId = `st-${randomUUID()}`;
  const prefix = prefixOf(channel, startedAt);
  putObject(
    `${prefix}/events/recording-ended.json`,
    JSON.stringify(endedJson(channel, startedAt, durationMs)),
  );
  const event = recordingEvent(
    channel,
    'Recording End',
    streamId,
    prefix,
    startedAt.getTime() + durationMs,
    durationMs,
  );
  return { streamId, prefix, event, result: await deliver(event) };
};

interface OnDemandItem {
  content_id: string;
  type: string;
  title: string;
  thumbnail_url: string;
  duration_formatted: string;
  is_free: boolean;
  is_locked: boolean;
  stream_url: string | null;
}

const onDemand = async (creatorId: string, token?: string) => {
  const response = await api.get(`/creators/${creatorId}/channel/ondemand?limit=50`, token ? { token } : {});
  expect(response.status).toBe(200);
  return response.body.data as { total: number; content: OnDemandItem[] };
};

/** Polls the creator's on-demand list until it holds `count` items (the read path is an index). */
const waitForItems = async (creatorId: string, count: number, token?: string) => {
  await waitFor(async () => (await onDemand(creatorId, token)).total === count, `${count} on-demand items`);
  return onDemand(creatorId, token);
};

describe('a lost Recording End is repaired by the live minute', () => {
  /** The repair as the audience function runs it every minute: its environment and IAM policy. */
  const repair = (live: string[]) =>
    runAsFunction(functionContext(audienceRow), () => repairLostRecordings(new Set(live), new Date()));
  const markerOf = async (streamId: string) =>
    (await db.send(new GetCommand({ TableName: tableName(), Key: recordingMarkerKey(streamId) }))).Item;

  it('publishes a recording whose Recording Start came and End never did, once the stream is over and its file is there', async () => {
    const channel = await provision();
    const startedAt = new Date(Math.floor(Date.now() / 1000) * 1000 - 600_000);
    const streamId = `st-${randomUUID()}`;
    const prefix = prefixOf(channel, startedAt);
    putObject(`${prefix}/events/recording-started.json`, JSON.stringify(startedJson(channel, startedAt)));
    expect(
      await deliver(recordingEvent(channel, 'Recording Start', streamId, prefix, startedAt.getTime())),
    ).toMatchObject({ kind: 'dvr-ready' });
    // Still live: left alone. Over, but IVS has not written recording-ended.json yet: waits.
    await repair([streamId]);
    expect(await markerOf(streamId)).toBeUndefined();
    expect((await repair([])).waiting).toBeGreaterThanOrEqual(1);
    expect(await markerOf(streamId)).toBeUndefined();
    // The file is there; the Recording End event is lost: the repair publishes it, once.
    putObject(
      `${prefix}/events/recording-ended.json`,
      JSON.stringify(endedJson(channel, startedAt, 300_000)),
    );
    expect((await repair([])).published).toBeGreaterThanOrEqual(1);
    expect(await markerOf(streamId)).toMatchObject({
      creator_id: channel.creatorId,
      episode_id: recordingEpisodeId(streamId),
    });
    const list = await waitForItems(channel.creatorId, 1);
    expect(list.content[0]).toMatchObject({ content_id: recordingEpisodeId(streamId), type: 'free' });
    // Nothing pending for it any more; a late Recording End after all writes nothing.
    await repair([]);
    expect(
      await deliver(
        recordingEvent(channel, 'Recording End', streamId, prefix, startedAt.getTime() + 300_000, 300_000),
      ),
    ).toMatchObject({ kind: 'recording-stale' });
    expect((await onDemand(channel.creatorId)).total).toBe(1);
  });
});

describe('Recording End: the broadcast becomes an on-demand item', () => {
  it("adds a free item to the creator's on-demand list with the recording's duration, thumbnail and playlist", async () => {
    const channel = await provision();
    const startedAt = new Date('2026-11-20T18:04:10Z');
    const { streamId, prefix, result } = await record(channel, { startedAt, durationMs: 3_725_000 });
    expect(result).toMatchObject({
      kind: 'recording-published',
      creatorId: channel.creatorId,
      streamId,
      episodeId: recordingEpisodeId(streamId),
      access: 'free',
    });
    const { content } = await waitForItems(channel.creatorId, 1);
    expect(content).toEqual([
      expect.objectContaining({
        content_id: recordingEpisodeId(streamId),
        type: 'free',
        title: 'Live: Nov 20, 2026',
        duration_formatted: '1:02:05',
        thumbnail_url: `${CDN()}/${prefix}/media/thumbnails/thumb0.jpg`,
        is_free: true,
        is_locked: false,
        stream_url: signed(`${CDN()}/${prefix}/media/hls/master.m3u8`),
      }),
    ]);
  });

  it("takes the creator's stream title when they set one, and lists later broadcasts after earlier ones", async () => {
    const channel = await provision({ liveTitle: 'Friday jam session' });
    const first = await record(channel, { startedAt: new Date('2026-11-21T20:00:00Z') });
    const second = await record(channel, { startedAt: new Date('2026-11-22T20:00:00Z'), durationMs: 59_000 });
    expect([first.result.kind, second.result.kind]).toEqual(['recording-published', 'recording-published']);
    const { content } = await waitForItems(channel.creatorId, 2);
    expect(content.map((item) => [item.content_id, item.title, item.duration_formatted])).toEqual([
      [recordingEpisodeId(first.streamId), 'Friday jam session', '1:02:05'],
      [recordingEpisodeId(second.streamId), 'Friday jam session', '00:59'],
    ]);
  });

  it('writes nothing for a repeated or late Recording End of the same stream', async () => {
    const channel = await provision();
    const { streamId, event } = await record(channel);
    await waitForItems(channel.creatorId, 1);
    // The same document again (EventBridge's at-least-once), and a copy with another event id.
    expect(await deliver(event)).toMatchObject({ kind: 'recording-stale', streamId });
    const late = await record(channel);
    expect(await deliver({ ...event, id: randomUUID() })).toMatchObject({
      kind: 'recording-stale',
      streamId,
    });
    // Concurrent copies: one transaction wins on the marker, the others are stale.
    const copies = await Promise.all([1, 2, 3].map(() => deliver({ ...late.event, id: randomUUID() })));
    expect(copies.map((r) => r.kind)).toEqual(['recording-stale', 'recording-stale', 'recording-stale']);
    const { content } = await waitForItems(channel.creatorId, 2);
    expect(content.map((item) => item.content_id).sort()).toEqual(
      [recordingEpisodeId(streamId), recordingEpisodeId(late.streamId)].sort(),
    );
  });

  it('publishes once when the first deliveries race each other', async () => {
    const channel = await provision();
    const startedAt = new Date(Date.now() - 600_000);
    const streamId = `st-${randomUUID()}`;
    const prefix = prefixOf(channel, startedAt);
    putObject(`${prefix}/events/recording-ended.json`, JSON.stringify(endedJson(channel, startedAt, 60_000)));
    const event = recordingEvent(channel, 'Recording End', streamId, prefix, Date.now(), 60_000);
    const results = await Promise.all([1, 2, 3, 4].map(() => deliver({ ...event, id: randomUUID() })));
    expect(results.filter((r) => r.kind === 'recording-published')).toHaveLength(1);
    expect(results.filter((r) => r.kind === 'recording-stale')).toHaveLength(3);
    expect((await waitForItems(channel.creatorId, 1)).content[0]?.content_id).toBe(
      recordingEpisodeId(streamId),
    );
  });

  it('logs and drops a recording-ended.json that is not JSON or not the documented shape; no item', async () => {
    const channel = await provision();
    const log = captureLog();
    const startedAt = new Date(Date.now() - 600_000);
    const cases = [
      '{"version": "v1", "media": ',
      JSON.stringify({ ...endedJson(channel, startedAt, 1000), media: { hls: { path: 'media/hls' } } }),
      JSON.stringify({
        ...endedJson(channel, startedAt, 1000),
        media: { hls: { duration_ms: 1000, path: '../../other-creator', playlist: 'master.m3u8' } },
      }),
    ];
    for (const body of cases) {
      const streamId = `st-${randomUUID()}`;
      const prefix = prefixOf(channel, startedAt);
      putObject(`${prefix}/events/recording-ended.json`, body);
      const result = await deliver(
        recordingEvent(channel, 'Recording End', streamId, prefix, Date.now(), 1000),
      );
      expect(result).toMatchObject({
        kind: 'recording-dropped',
        streamId,
        key: `${prefix}/events/recording-ended.json`,
      });
      const marker = await db.send(
        new GetCommand({ TableName: tableName(), Key: recordingMarkerKey(streamId), ConsistentRead: true }),
      );
      expect(marker.Item).toBeUndefined();
    }
    const lines = log.lines('ivs event');
    expect(lines).toHaveLength(3);
    expect(lines.every((line) => line.level === 'WARN' && line.kind === 'recording-dropped')).toBe(true);
    expect(lines[0]!.error).toMatch(/not JSON/);
    expect(lines[1]!.error).toMatch(/media\.hls\.duration_ms/);
    expect(lines[2]!.error).toMatch(/media\.hls\.path/);
    expect((await onDemand(channel.creatorId)).total).toBe(0);
  });

  it('ignores a recording in a bucket other than the recordings bucket', async () => {
    const channel = await provision();
    const event = recordingEvent(
      channel,
      'Recording End',
      `st-${randomUUID()}`,
      prefixOf(channel, new Date()),
      Date.now(),
    );
    event.detail.recording_s3_bucket_name = 'someone-elses-bucket';
    expect(await deliver(event)).toMatchObject({ kind: 'recording-ignored', reason: 'foreign-bucket' });
    expect((await onDemand(channel.creatorId)).total).toBe(0);
  });

  it('does not publish the recording of a stream an operator stopped for moderation', async () => {
    const channel = await provision();
    const streamId = `st-${randomUUID()}`;
    await recordCreatorModeration(channel.creatorId, {
      action: 'stop-stream',
      by: 'test',
      reason: 'spam',
      at: new Date().toISOString(),
      stream_id: streamId,
    });
    const startedAt = new Date(Date.now() - 600_000);
    const prefix = prefixOf(channel, startedAt);
    putObject(`${prefix}/events/recording-ended.json`, JSON.stringify(endedJson(channel, startedAt, 60_000)));
    const event = recordingEvent(channel, 'Recording End', streamId, prefix, Date.now(), 60_000);
    expect(await deliver(event)).toMatchObject({ kind: 'recording-ignored', reason: 'moderated' });
    // The creator's next, unmoderated broadcast is published as usual.
    expect((await record(channel)).result).toMatchObject({ kind: 'recording-published' });
    expect((await waitForItems(channel.creatorId, 1)).total).toBe(1);
  });

  it("does not publish a deleted creator's last recording (DELETE /me stopped the stream)", async () => {
    // Until stop 60 it became an episode: public until the purge, or outliving the account when
    // written as the purge ran.
    const channel = await provision();
    const handle = `rec_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
    await createAccount({
      account_id: channel.creatorId,
      email: `${handle}@example.com`,
      creator_name: 'Recording Test',
      handle,
      user_status: 'active',
      completed_steps: [],
      created_at: new Date().toISOString(),
    });
    expect(await markDeleted(channel.creatorId, new Date())).toBe(true);
    expect((await record(channel)).result).toMatchObject({
      kind: 'recording-ignored',
      reason: 'account-deleted',
    });
    expect((await onDemand(channel.creatorId)).total).toBe(0);
  });

  it('throws when recording-ended.json is not there (S3 errors are retried), writing nothing', async () => {
    const channel = await provision();
    const streamId = `st-${randomUUID()}`;
    const prefix = prefixOf(channel, new Date());
    await expect(
      deliver(recordingEvent(channel, 'Recording End', streamId, prefix, Date.now(), 1000)),
    ).rejects.toThrow(/does not exist/);
    expect((await onDemand(channel.creatorId)).total).toBe(0);
  });

  it('makes a premium item for a creator whose channel requires a subscription: locked unless subscribed', async () => {
    const channel = await provision({ requiresSubscription: true });
    const { streamId, prefix, result } = await record(channel);
    expect(result).toMatchObject({ kind: 'recording-published', access: 'premium' });
    const anonymous = await waitForItems(channel.creatorId, 1);
    expect(anonymous.content[0]).toMatchObject({
      content_id: recordingEpisodeId(streamId),
      type: 'premium',
      is_free: false,
      is_locked: true,
      stream_url: null,
    });
    // A new viewer (not a shared demo account) subscribes to the creator (granted as the
    // payment webhook grants it: this creator is written here, with no payout account to buy from).
    const id = randomUUID().replace(/-/g, '').slice(0, 12);
    const signUp = await api.post(
      '/onboarding/account/create',
      fromNewAddress({
        body: {
          email: `viewer.${id}@example.com`,
          password: 'correct-horse-1',
          creator_name: `Viewer ${id}`,
          handle: `viewer_${id}`,
          agreed_to_terms: true,
        },
      }),
    );
    expect(signUp.status).toBe(201);
    const token: string = signUp.body.data.auth_token;
    await applyEntitlement(
      entitlement({
        account_id: signUp.body.data.creator_id,
        creator_id: channel.creatorId,
        valid_until: new Date(Date.now() + 30 * 86_400_000).toISOString(),
      }),
    );
    const subscribed = await onDemand(channel.creatorId, token);
    expect(subscribed.content[0]).toMatchObject({
      is_locked: false,
      stream_url: signed(`${CDN()}/${prefix}/media/hls/master.m3u8`),
    });
  });
});

describe('Recording Start: the DVR playlist while live', () => {
  const creatorOf = async (creatorId: string) =>
    (
      await db.send(
        new GetCommand({ TableName: tableName(), Key: creatorKey(creatorId), ConsistentRead: true }),
      )
    ).Item as CreatorRecord & { live_recording?: LiveRecording; version: number };

  it('records the in-progress master playlist of recording-started.json; dvrUrlOf plays it while that stream is live', async () => {
    const channel = await provision();
    const t0 = Math.floor(Date.now() / 1000) * 1000 - 120_000;
    const streamId = `st-${randomUUID()}`;
    const prefix = prefixOf(channel, new Date(t0));
    putObject(`${prefix}/events/recording-started.json`, JSON.stringify(startedJson(channel, new Date(t0))));
    // Recording Start before Stream Start (IVS's order is not guaranteed): kept for the stream.
    expect(await deliver(recordingEvent(channel, 'Recording Start', streamId, prefix, t0))).toMatchObject({
      kind: 'dvr-ready',
      playlistKey: `${prefix}/media/hls/master.m3u8`,
    });
    const before = await creatorOf(channel.creatorId);
    expect(dvrUrlOf(before)).toBeUndefined(); // not live yet
    await deliver(streamEvent(channel, 'Stream Start', streamId, t0));
    const live = await creatorOf(channel.creatorId);
    expect(dvrUrlOf(live, 'https://media.example.net')).toBe(
      `https://media.example.net/${prefix}/media/hls/master.m3u8`,
    );
    expect(dvrUrlOf(live)).toBe(`${CDN()}/${prefix}/media/hls/master.m3u8`);
    // An older recording's late start changes nothing; a later stream without its start has no DVR.
    const older = prefixOf(channel, new Date(t0 - 60_000));
    putObject(
      `${older}/events/recording-started.json`,
      JSON.stringify(startedJson(channel, new Date(t0 - 60_000))),
    );
    expect(
      await deliver(recordingEvent(channel, 'Recording Start', 'st-older', older, t0 - 60_000)),
    ).toMatchObject({
      kind: 'recording-stale',
    });
    expect(dvrUrlOf(await creatorOf(channel.creatorId))).toBe(`${CDN()}/${prefix}/media/hls/master.m3u8`);
    await deliver(streamEvent(channel, 'Stream End', streamId, t0 + 30_000));
    expect(dvrUrlOf(await creatorOf(channel.creatorId))).toBeUndefined();
    await deliver(streamEvent(channel, 'Stream Start', 'st-next', t0 + 60_000));
    expect(dvrUrlOf(await creatorOf(channel.creatorId))).toBeUndefined();
  });

  it('drops a malformed recording-started.json and throws when it is missing', async () => {
    const channel = await provision();
    const log = captureLog();
    const prefix = prefixOf(channel, new Date());
    putObject(`${prefix}/events/recording-started.json`, JSON.stringify({ version: 'v1', media: {} }));
    expect(
      await deliver(recordingEvent(channel, 'Recording Start', 'st-bad', prefix, Date.now())),
    ).toMatchObject({
      kind: 'recording-dropped',
    });
    expect(log.lines('ivs event')[0]).toMatchObject({
      level: 'WARN',
      kind: 'recording-dropped',
    });
    expect((await creatorOf(channel.creatorId)).live_recording).toBeUndefined();
    const missing = prefixOf(channel, new Date());
    await expect(
      deliver(recordingEvent(channel, 'Recording Start', 'st-none', missing, Date.now())),
    ).rejects.toThrow(/does not exist/);
  });
});

describe('through the local broadcaster (what IVS writes to S3, as npm start runs it)', () => {
  let ivs: IvsStandIn;
  let client: IvsClient;
  let broadcaster: Broadcaster;
  let clock = Date.now();

  beforeAll(async () => {
    // With the media CDN stand-in on its port, serving this test's recordings root.
    ivs = await startIvsStandIn({ throttle: false, extra: serveMediaCdn });
    client = new IvsClient({
      endpoint: ivs.endpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    broadcaster = createBroadcaster({
      state: ivs.state,
      pattern: ivs.pattern,
      sink: async (event) => {
        await deliver(event);
      },
      recordingsRoot: root,
      now: () => clock,
    });
  });
  afterAll(async () => {
    client.destroy();
    await ivs.stop();
  });

  it('plays the growing recording as DVR while live, then lists the finished one on demand', async () => {
    const { recordingConfiguration } = await client.send(
      new CreateRecordingConfigurationCommand({
        destinationConfiguration: { s3: { bucketName: LOCAL_RECORDINGS_BUCKET } },
        thumbnailConfiguration: { recordingMode: 'INTERVAL', targetIntervalSeconds: 60 },
      }),
    );
    const { channel: created } = await client.send(
      new CreateChannelCommand({ name: 'recorded', recordingConfigurationArn: recordingConfiguration!.arn }),
    );
    const channelArn = created!.arn!;
    const base = await provision();
    await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: creatorKey(base.creatorId),
        UpdateExpression: 'SET ivs.channel_arn = :arn',
        ExpressionAttributeValues: { ':arn': channelArn },
      }),
    );
    await db.send(
      new PutCommand({
        TableName: tableName(),
        Item: ivsChannelItem(channelArn, base.creatorId),
      }),
    );

    clock = Math.floor(Date.now() / 1000) * 1000 - 60_000;
    const stream = await broadcaster.start(channelArn);
    const creator = (
      await db.send(
        new GetCommand({ TableName: tableName(), Key: creatorKey(base.creatorId), ConsistentRead: true }),
      )
    ).Item as CreatorRecord & { live_recording?: LiveRecording };
    expect(creator.live?.stream_id).toBe(stream.streamId);
    const dvr = dvrUrlOf(creator);
    expect(dvr).toBe(`${CDN()}/${creator.live_recording!.playlist_key}`);
    // What the DVR URL names exists while live: the master playlist and a growing EVENT playlist.
    const hls = join(root, LOCAL_RECORDINGS_BUCKET, creator.live_recording!.playlist_key, '..');
    expect(readFileSync(join(hls, 'master.m3u8'), 'utf8')).toContain('360p30/playlist.m3u8');
    clock += 6_500; // three whole segments of 2 s
    await waitFor(
      async () =>
        (readFileSync(join(hls, '360p30/playlist.m3u8'), 'utf8').match(/#EXTINF/g) ?? []).length === 3,
      'the in-progress recording to list 3 segments',
    );
    const growing = readFileSync(join(hls, '360p30/playlist.m3u8'), 'utf8');
    expect(growing).toContain('#EXT-X-PLAYLIST-TYPE:EVENT');
    expect(growing).not.toContain('#EXT-X-ENDLIST');
    expect(readFileSync(join(hls, '360p30/2.ts'))[0]).toBe(0x47);

    clock += 1_000;
    const recording = await broadcaster.stop(channelArn);
    const { content } = await waitForItems(base.creatorId, 1);
    expect(content[0]).toMatchObject({
      content_id: recordingEpisodeId(stream.streamId),
      type: 'free',
      duration_formatted: '00:08',
      thumbnail_url: `${CDN()}/${recording!.prefix}/media/thumbnails/thumb0.jpg`,
      stream_url: signed(dvr!),
    });
    // The media CDN (its local stand-in) plays the finished recording with the signed URL's
    // query, renditions and segments included, and refuses them without it.
    const playlist = new URL(content[0]!.stream_url!);
    const child = (path: string, query = playlist.search) =>
      viaLocalCdn(
        `${new URL(path, playlist).origin}${new URL(path, playlist).pathname}${query}`,
        ivs.endpoint,
      );
    expect((await fetch(viaLocalCdn(playlist.href, ivs.endpoint))).status).toBe(200);
    expect((await fetch(child('360p30/playlist.m3u8'))).status).toBe(200);
    expect((await fetch(child('360p30/2.ts'))).status).toBe(200);
    expect((await fetch(child('360p30/2.ts', ''))).status).toBe(403);
    expect(
      (await fetch(child('360p30/2.ts', playlist.search.replace('Signature=', 'Signature=x')))).status,
    ).toBe(403);
    const finished = readFileSync(join(hls, '360p30/playlist.m3u8'), 'utf8');
    expect(finished).toContain('#EXT-X-ENDLIST');
    expect(finished.match(/#EXTINF/g)).toHaveLength(4);
  });
});
