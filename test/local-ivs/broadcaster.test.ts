import {
  ChannelNotBroadcasting,
  CreateChannelCommand,
  CreateRecordingConfigurationCommand,
  GetStreamCommand,
  IvsClient,
  ListStreamsCommand,
  StopStreamCommand,
} from '@aws-sdk/client-ivs';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type IvsStandIn, startIvsStandIn } from '../../scripts/local/ivs/api.ts';
import { type Broadcaster, createBroadcaster, type IvsEvent } from '../../scripts/local/ivs/broadcaster.ts';
import { parseIvsEvent } from '../../shared/channels/ivs-events.ts';
import { localIvsClientConfig } from './playback-token.ts';

/**
 * The broadcaster makes channels go live and offline in the stand-in and emits the EventBridge
 * documents IVS sends, in order and in the documented shape; a recorded channel's recording is
 * written like IVS writes it to S3 (events/recording-*.json, media/hls, thumbnails).
 */
let ivs: IvsStandIn;
let client: IvsClient;
let broadcaster: Broadcaster;
let recordingsRoot: string;
let clock: number;
const events: IvsEvent[] = [];

beforeAll(async () => {
  clock = Date.parse('2026-11-24T06:58:30Z');
  ivs = await startIvsStandIn({ throttle: false });
  client = new IvsClient(localIvsClientConfig(ivs.endpoint));
  recordingsRoot = mkdtempSync(join(tmpdir(), 'ivs-recordings-'));
  broadcaster = createBroadcaster({
    state: ivs.state,
    pattern: ivs.pattern,
    sink: (event) => {
      // The platform's own parser (what the EventBridge target runs) must accept every document.
      const parsed = parseIvsEvent(event);
      if (!parsed.ok) throw new Error(`the platform refuses ${event['detail-type']}: ${parsed.error}`);
      events.push(event);
    },
    recordingsRoot,
    now: () => clock,
  });
});
afterAll(async () => {
  client.destroy();
  await ivs.stop();
  rmSync(recordingsRoot, { recursive: true, force: true });
});

const eventNames = () =>
  events.map((e) => `${e['detail-type']}: ${(e.detail.event_name ?? e.detail.recording_status) as string}`);

describe('a recorded channel going live and offline', () => {
  it('emits Session Created, Stream Start, Recording Start; then Stream End, Session Ended, Recording End with the files', async () => {
    const { recordingConfiguration } = await client.send(
      new CreateRecordingConfigurationCommand({
        destinationConfiguration: { s3: { bucketName: 'creator-vod' } },
        thumbnailConfiguration: { recordingMode: 'INTERVAL', storage: ['SEQUENTIAL', 'LATEST'] },
      }),
    );
    const { channel } = await client.send(
      new CreateChannelCommand({ name: 'studio-9', recordingConfigurationArn: recordingConfiguration!.arn }),
    );
    const arn = channel!.arn!;
    events.length = 0;

    const live = await broadcaster.start(arn);
    expect(live.streamId).toMatch(/^st-[A-Za-z0-9]+$/);
    const { stream } = await client.send(new GetStreamCommand({ channelArn: arn }));
    expect(stream).toMatchObject({
      streamId: live.streamId,
      state: 'LIVE',
      health: 'HEALTHY',
      startTime: new Date(clock),
    });
    broadcaster.setViewerCount(arn, 12);
    const { streams } = await client.send(new ListStreamsCommand({}));
    expect(streams).toEqual([
      expect.objectContaining({
        channelArn: arn,
        streamId: live.streamId,
        viewerCount: 12,
        health: 'HEALTHY',
      }),
    ]);

    clock += 7_250; // 7.25 s of broadcast: 4 segments of 2 s
    const recording = await broadcaster.stop(arn);

    expect(eventNames()).toEqual([
      'IVS Stream State Change: Session Created',
      'IVS Stream State Change: Stream Start',
      'IVS Recording State Change: Recording Start',
      'IVS Stream State Change: Stream End',
      'IVS Stream State Change: Session Ended',
      'IVS Recording State Change: Recording End',
    ]);
    for (const event of events) {
      expect(event).toMatchObject({
        version: '0',
        source: 'aws.ivs',
        account: '000000000000',
        region: 'us-east-1',
        resources: [arn],
      });
      expect(event.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(event.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      expect(event.detail).toMatchObject({ channel_name: 'studio-9', stream_id: live.streamId });
    }
    expect(events[0]!.time).toBe('2026-11-24T06:58:30Z');
    const prefix = events[2]!.detail.recording_s3_key_prefix as string;
    expect(prefix).toMatch(
      new RegExp(`^ivs/v1/000000000000/${arn.split('/')[1]}/2026/11/24/6/58/[A-Za-z0-9]{12}$`),
    );
    expect(events[5]!.detail).toEqual({
      channel_name: 'studio-9',
      stream_id: live.streamId,
      recording_status: 'Recording End',
      recording_status_reason: '',
      recording_s3_bucket_name: 'creator-vod',
      recording_s3_key_prefix: prefix,
      recording_duration_ms: 7_250,
      recording_session_id: events[2]!.detail.recording_session_id,
      recording_session_stream_ids: [live.streamId],
    });

    // The files, as IVS writes them under the S3 prefix.
    const dir = join(recordingsRoot, 'creator-vod', prefix);
    expect(recording).toEqual({ bucketName: 'creator-vod', prefix, dir, durationMs: 7_250 });
    const started = JSON.parse(readFileSync(join(dir, 'events/recording-started.json'), 'utf8'));
    expect(started).toMatchObject({ version: 'v1', channel_arn: arn, recording_status: 'RECORDING_STARTED' });
    const ended = JSON.parse(readFileSync(join(dir, 'events/recording-ended.json'), 'utf8'));
    expect(ended).toEqual({
      version: 'v1',
      channel_arn: arn,
      recording_started_at: '2026-11-24T06:58:30Z',
      recording_ended_at: '2026-11-24T06:58:37Z',
      recording_status: 'RECORDING_ENDED',
      recording_status_message: '',
      media: {
        hls: {
          duration_ms: 7_250,
          path: 'media/hls',
          playlist: 'master.m3u8',
          renditions: [
            { path: '360p30', playlist: 'playlist.m3u8', resolution_height: 360, resolution_width: 640 },
          ],
        },
        thumbnails: { path: 'media/thumbnails', resolution_height: 360, resolution_width: 640 },
        latest_thumbnail: {
          path: 'media/latest_thumbnail/thumb.jpg',
          resolution_height: 360,
          resolution_width: 640,
        },
      },
    });
    const hls = join(dir, ended.media.hls.path);
    expect(readFileSync(join(hls, ended.media.hls.playlist), 'utf8')).toContain('360p30/playlist.m3u8');
    const variant = readFileSync(join(hls, '360p30/playlist.m3u8'), 'utf8');
    expect(variant.match(/#EXTINF/g)).toHaveLength(4);
    expect(variant).toContain('#EXT-X-ENDLIST');
    expect(readFileSync(join(hls, '360p30/3.ts'))[0]).toBe(0x47);
    const thumbnail = readFileSync(join(dir, 'media/thumbnails/thumb0.jpg'));
    expect(thumbnail.subarray(0, 2).toString('hex')).toBe('ffd8'); // JPEG SOI
    expect(existsSync(join(dir, 'media/latest_thumbnail/thumb.jpg'))).toBe(true);

    expect((await client.send(new ListStreamsCommand({}))).streams).toEqual([]);
  });
});

describe('health, failure and StopStream', () => {
  it('emits Starvation Start/End with the stream health, Stream Failure, and StopStream ends the stream', async () => {
    const { channel } = await client.send(new CreateChannelCommand({ name: 'flaky' }));
    const arn = channel!.arn!;
    const live = await broadcaster.start(arn);
    events.length = 0;

    await broadcaster.starve(arn);
    expect((await client.send(new GetStreamCommand({ channelArn: arn }))).stream!.health).toBe('STARVING');
    expect(
      (await client.send(new ListStreamsCommand({ filterBy: { health: 'STARVING' } }))).streams,
    ).toHaveLength(1);
    await broadcaster.recover(arn);
    expect((await client.send(new GetStreamCommand({ channelArn: arn }))).stream!.health).toBe('HEALTHY');
    await broadcaster.failStream(arn, 'Transcode capacity exceeded. Please try again.');
    expect(events.map((e) => [e['detail-type'], e.detail])).toEqual([
      [
        'IVS Stream Health Change',
        { event_name: 'Starvation Start', channel_name: 'flaky', stream_id: live.streamId },
      ],
      [
        'IVS Stream Health Change',
        { event_name: 'Starvation End', channel_name: 'flaky', stream_id: live.streamId },
      ],
      [
        'IVS Stream State Change',
        {
          event_name: 'Stream Failure',
          channel_name: 'flaky',
          stream_id: live.streamId,
          reason: 'Transcode capacity exceeded. Please try again.',
        },
      ],
    ]);

    // StopStream (the API) disconnects the encoder: the broadcaster ends the stream with its events.
    await broadcaster.start(arn);
    events.length = 0;
    await client.send(new StopStreamCommand({ channelArn: arn }));
    await vi.waitFor(() =>
      expect(eventNames()).toEqual([
        'IVS Stream State Change: Stream End',
        'IVS Stream State Change: Session Ended',
      ]),
    );
    await expect(client.send(new GetStreamCommand({ channelArn: arn }))).rejects.toBeInstanceOf(
      ChannelNotBroadcasting,
    );
  });

  it('a failed recorded stream ends its recording with Recording End Failure and recording-failed.json', async () => {
    const { recordingConfiguration } = await client.send(
      new CreateRecordingConfigurationCommand({
        destinationConfiguration: { s3: { bucketName: 'creator-vod' } },
      }),
    );
    const { channel } = await client.send(
      new CreateChannelCommand({ name: 'doomed', recordingConfigurationArn: recordingConfiguration!.arn }),
    );
    await broadcaster.start(channel!.arn!);
    events.length = 0;
    clock += 3_000;
    await broadcaster.failStream(channel!.arn!, 'Transcode capacity exceeded. Please try again.');
    expect(eventNames()).toEqual([
      'IVS Stream State Change: Stream Failure',
      'IVS Recording State Change: Recording End Failure',
    ]);
    expect(events[1]!.detail).toMatchObject({
      recording_status_reason: 'InternalServerException',
      recording_duration_ms: 3_000,
    });
    const dir = join(recordingsRoot, 'creator-vod', events[1]!.detail.recording_s3_key_prefix as string);
    const failed = JSON.parse(readFileSync(join(dir, 'events/recording-failed.json'), 'utf8'));
    expect(failed).toMatchObject({
      recording_status: 'RECORDING_ENDED_WITH_FAILURE',
      recording_status_message: 'InternalServerException',
      media: { hls: { duration_ms: 3_000 } },
    });
    expect(existsSync(join(dir, 'events/recording-ended.json'))).toBe(false);
  });

  it('refuses to go live on a channel without a stream key or already live', async () => {
    const { channel, streamKey } = await client.send(new CreateChannelCommand({ name: 'keyless' }));
    await broadcaster.start(channel!.arn!);
    await expect(broadcaster.start(channel!.arn!)).rejects.toThrow(/already live/);
    await broadcaster.stop(channel!.arn!);
    ivs.state.streamKeys.delete(streamKey!.arn!);
    await expect(broadcaster.start(channel!.arn!)).rejects.toThrow(/no stream key/);
  });
});
