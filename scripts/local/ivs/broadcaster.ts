import { randomUUID } from 'node:crypto';
import { copyFileSync, existsSync, linkSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ACCOUNT,
  type IvsState,
  type LiveStream,
  REGION,
  randomId,
  type RecordingConfigurationRecord,
} from './api.ts';
import {
  multivariantPlaylist,
  RENDITION,
  segmentFileAt,
  type TestPattern,
  vodMediaPlaylist,
} from './test-pattern.ts';

/**
 * The local stand-in for an encoder going live on IVS, and for what IVS then reports: `start`
 * makes a channel's stream LIVE in the stand-in's state (GetStream, ListStreams and the origin
 * see it) and `stop` ends it. Each step emits the EventBridge documents IVS sends, in their
 * documented shape, to a sink (the platform feeds them to its reducer). A channel with a
 * recording configuration is "recorded": Recording Start/End events, and the files IVS writes
 * to S3 go under `<recordingsRoot>/<bucket>/<prefix>/`, a local directory standing in for S3:
 * events/recording-started.json and the HLS growing while live (master.m3u8, an EVENT rendition
 * playlist and its segments, every segment duration), then on stop the finished HLS (VOD
 * playlist), thumbnails and recording-ended.json (or recording-failed.json).
 */

export type IvsEventDetailType =
  | 'IVS Stream State Change'
  | 'IVS Stream Health Change'
  | 'IVS Recording State Change';

/** An EventBridge event as IVS emits it. */
export interface IvsEvent {
  version: '0';
  id: string;
  'detail-type': IvsEventDetailType;
  source: 'aws.ivs';
  account: string;
  time: string;
  region: string;
  resources: string[];
  detail: Record<string, unknown>;
}

export type IvsEventSink = (event: IvsEvent) => void | Promise<void>;

export interface BroadcasterOptions {
  state: IvsState;
  pattern: TestPattern;
  /** Receives every event, in emission order (awaited one at a time). */
  sink: IvsEventSink;
  /** Stands in for S3: recordings go to `<recordingsRoot>/<bucketName>/<s3 prefix>/`. */
  recordingsRoot: string;
  now?: () => number;
}

interface Recording {
  config: RecordingConfigurationRecord;
  sessionId: string;
  prefix: string;
  startedAt: Date;
  /** Segments already under media/hls while live (each a whole segment duration of broadcast). */
  segmentsWritten: number;
  /** Appends the segments broadcast so far, every segment duration, while live. */
  timer?: ReturnType<typeof setInterval>;
}

export interface RecordingResult {
  bucketName: string;
  prefix: string;
  /** The local directory holding the recording (the S3 prefix's stand-in). */
  dir: string;
  durationMs: number;
}

/** EventBridge times are whole seconds: `2020-06-23T20:12:36Z`. */
const eventTime = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

/** IVS's S3 prefix: `ivs/v1/<account>/<channel id>/<y>/<m>/<d>/<h>/<min>/<recording id>` (UTC, unpadded). */
const recordingPrefix = (channelArn: string, at: Date, recordingId: string) =>
  [
    'ivs/v1',
    ACCOUNT,
    channelArn.split('/')[1],
    at.getUTCFullYear(),
    at.getUTCMonth() + 1,
    at.getUTCDate(),
    at.getUTCHours(),
    at.getUTCMinutes(),
    recordingId,
  ].join('/');

/**
 * A recording repeats the pattern's segments (one per 2 s of broadcast): hard links keep an hours
 * long local broadcast from filling the disk; a copy when the recordings root is on another device.
 */
const linkOrCopy = (source: string, target: string) => {
  try {
    linkSync(source, target);
  } catch {
    copyFileSync(source, target);
  }
};

const HLS_PATH = 'media/hls';
const THUMBNAILS_PATH = 'media/thumbnails';
const LATEST_THUMBNAIL_PATH = 'media/latest_thumbnail/thumb.jpg';

/** The media section of recording-started.json / recording-ended.json (IVS Auto-Record to S3). */
const recordingMedia = (config: RecordingConfigurationRecord, durationMs?: number) => {
  const size = { resolution_height: RENDITION.height, resolution_width: RENDITION.width };
  const thumbnails = config.thumbnailConfiguration;
  return {
    hls: {
      ...(durationMs === undefined ? {} : { duration_ms: durationMs }),
      path: HLS_PATH,
      playlist: 'master.m3u8',
      renditions: [{ path: RENDITION.name, playlist: 'playlist.m3u8', ...size }],
    },
    ...(thumbnails.recordingMode === 'INTERVAL' ? { thumbnails: { path: THUMBNAILS_PATH, ...size } } : {}),
    ...(thumbnails.storage.includes('LATEST')
      ? { latest_thumbnail: { path: LATEST_THUMBNAIL_PATH, ...size } }
      : {}),
  };
};

export interface Broadcaster {
  /** Goes live on a channel (it must exist, have a stream key and be offline). */
  start(channelArn: string): Promise<LiveStream>;
  /** Ends the live stream; resolves with the recording when the channel records. */
  stop(channelArn: string): Promise<RecordingResult | undefined>;
  /** The encoder stops sending data: health STARVING and `Starvation Start`. */
  starve(channelArn: string): Promise<void>;
  /** Data flows again: health HEALTHY and `Starvation End`. */
  recover(channelArn: string): Promise<void>;
  /**
   * IVS cannot process the stream: `Stream Failure` (with `reason`) and the stream is gone; a
   * recording ends with `Recording End Failure` and recording-failed.json.
   */
  failStream(channelArn: string, reason: string): Promise<void>;
  setViewerCount(channelArn: string, viewerCount: number): void;
}

/**
 * Creates the broadcaster and subscribes it to StopStream calls on the API, so StopStream ends
 * the stream with the same events as `stop`.
 */
export const createBroadcaster = (options: BroadcasterOptions): Broadcaster => {
  const { state, pattern, sink } = options;
  const now = options.now ?? Date.now;
  const recordings = new Map<string, Recording>();

  const emit = async (
    detailType: IvsEventDetailType,
    channelArn: string,
    detail: Record<string, unknown>,
  ): Promise<void> => {
    await sink({
      version: '0',
      id: randomUUID(),
      'detail-type': detailType,
      source: 'aws.ivs',
      account: ACCOUNT,
      time: eventTime(now()),
      region: REGION,
      resources: [channelArn],
      detail,
    });
  };

  const streamEvent = (stream: LiveStream, eventName: string, extra: Record<string, unknown> = {}) =>
    emit('IVS Stream State Change', stream.channelArn, {
      event_name: eventName,
      channel_name: state.channel(stream.channelArn).name,
      stream_id: stream.streamId,
      ...extra,
    });

  const recordingEvent = (
    stream: LiveStream,
    recording: Recording,
    status: 'Recording Start' | 'Recording End' | 'Recording End Failure',
    durationMs: number,
    reason = '',
  ) =>
    emit('IVS Recording State Change', stream.channelArn, {
      channel_name: state.channel(stream.channelArn).name,
      stream_id: stream.streamId,
      recording_status: status,
      recording_status_reason: reason,
      recording_s3_bucket_name: recording.config.bucketName,
      recording_s3_key_prefix: recording.prefix,
      recording_duration_ms: durationMs,
      recording_session_id: recording.sessionId,
      ...(status === 'Recording End' ? { recording_session_stream_ids: [stream.streamId] } : {}),
    });

  const recordingDir = (recording: Recording) =>
    join(options.recordingsRoot, recording.config.bucketName, recording.prefix);

  /**
   * Writes a whole file at once, as an S3 PUT replaces an object: a reader (the DVR's player
   * polling an EVENT playlist as it is rewritten) sees the old file or the new one, never a
   * truncated one (hls.js answers that with a fatal levelParsingError).
   */
  const writeWhole = (path: string, text: string) => {
    const partial = `${path}.${process.pid}.partial`;
    writeFileSync(partial, text);
    renameSync(partial, path);
  };

  const writeJson = (path: string, value: unknown) => {
    mkdirSync(join(path, '..'), { recursive: true });
    writeWhole(path, `${JSON.stringify(value, null, 2)}\n`);
  };

  /**
   * The HLS of a recording with `segmentCount` segments: the master playlist, the rendition's
   * segments not yet written and its playlist (EVENT while `inProgress`, VOD once ended), as IVS
   * writes a recording to S3 while the stream is live and finishes it at the end.
   */
  const writeHls = (recording: Recording, segmentCount: number, inProgress: boolean) => {
    const dir = recordingDir(recording);
    const renditionDir = join(dir, HLS_PATH, RENDITION.name);
    mkdirSync(renditionDir, { recursive: true });
    for (let sequence = recording.segmentsWritten; sequence < segmentCount; sequence++) {
      linkOrCopy(join(pattern.dir, segmentFileAt(pattern, sequence)), join(renditionDir, `${sequence}.ts`));
    }
    recording.segmentsWritten = Math.max(recording.segmentsWritten, segmentCount);
    writeWhole(
      join(renditionDir, 'playlist.m3u8'),
      vodMediaPlaylist(pattern, segmentCount, (seq) => `${seq}.ts`, { inProgress }),
    );
    writeWhole(join(dir, HLS_PATH, 'master.m3u8'), multivariantPlaylist(`${RENDITION.name}/playlist.m3u8`));
  };

  /** While live: the whole segments broadcast by `at` (the DVR plays these as they come). */
  const writeProgress = (recording: Recording, at: number) => {
    const elapsed = at - recording.startedAt.getTime();
    writeHls(recording, Math.max(0, Math.floor(elapsed / (pattern.segmentSeconds * 1000))), true);
    // LATEST storage: IVS rewrites the latest thumbnail while live (the live thumbnail_url).
    const latest = join(recordingDir(recording), LATEST_THUMBNAIL_PATH);
    if (recording.config.thumbnailConfiguration.storage.includes('LATEST') && !existsSync(latest)) {
      mkdirSync(join(latest, '..'), { recursive: true });
      copyFileSync(pattern.thumbnail, latest);
    }
  };

  /** The files IVS has written by Recording End: segments, playlists, thumbnails, metadata. */
  const writeRecording = (
    channelArn: string,
    recording: Recording,
    endedAt: number,
    failure?: string,
  ): RecordingResult => {
    const dir = recordingDir(recording);
    const durationMs = endedAt - recording.startedAt.getTime();
    const segmentCount = Math.max(1, Math.ceil(durationMs / (pattern.segmentSeconds * 1000)));
    writeHls(recording, segmentCount, false);
    const thumbnails = recording.config.thumbnailConfiguration;
    if (thumbnails.recordingMode === 'INTERVAL') {
      mkdirSync(join(dir, THUMBNAILS_PATH), { recursive: true });
      copyFileSync(pattern.thumbnail, join(dir, THUMBNAILS_PATH, 'thumb0.jpg'));
    }
    if (thumbnails.storage.includes('LATEST')) {
      mkdirSync(join(dir, LATEST_THUMBNAIL_PATH, '..'), { recursive: true });
      copyFileSync(pattern.thumbnail, join(dir, LATEST_THUMBNAIL_PATH));
    }
    writeJson(join(dir, failure ? 'events/recording-failed.json' : 'events/recording-ended.json'), {
      version: 'v1',
      channel_arn: channelArn,
      recording_ended_at: eventTime(endedAt),
      recording_started_at: eventTime(recording.startedAt.getTime()),
      recording_status: failure ? 'RECORDING_ENDED_WITH_FAILURE' : 'RECORDING_ENDED',
      recording_status_message: failure ?? '',
      media: recordingMedia(recording.config, durationMs),
    });
    return { bucketName: recording.config.bucketName, prefix: recording.prefix, dir, durationMs };
  };

  const liveStreamOf = (channelArn: string): LiveStream => {
    const stream = state.streams.get(channelArn);
    if (!stream) throw new Error(`channel ${channelArn} is not live`);
    return stream;
  };

  /** Takes a channel's stream and recording out of the state before any event is awaited. */
  const takeLive = (channelArn: string) => {
    const stream = liveStreamOf(channelArn);
    const recording = recordings.get(channelArn);
    state.streams.delete(channelArn);
    recordings.delete(channelArn);
    clearInterval(recording?.timer);
    return { stream, recording };
  };

  const end = async (channelArn: string): Promise<RecordingResult | undefined> => {
    const { stream, recording } = takeLive(channelArn);
    // Until its end's events are out, the channel cannot be deleted (IvsState.ending).
    state.ending.add(channelArn);
    try {
      await streamEvent(stream, 'Stream End');
      await streamEvent(stream, 'Session Ended');
      if (!recording) return undefined;
      const result = writeRecording(channelArn, recording, now());
      await recordingEvent(stream, recording, 'Recording End', result.durationMs);
      return result;
    } finally {
      state.ending.delete(channelArn);
    }
  };

  const broadcaster: Broadcaster = {
    async start(channelArn) {
      const channel = state.channel(channelArn);
      if (state.streams.has(channelArn)) throw new Error(`channel ${channelArn} is already live`);
      if (![...state.streamKeys.values()].some((key) => key.channelArn === channelArn)) {
        throw new Error(`channel ${channelArn} has no stream key: IVS refuses the ingest`);
      }
      const stream: LiveStream = {
        channelArn,
        streamId: `st-${randomId(25)}`,
        startTime: new Date(now()),
        health: 'HEALTHY',
        viewerCount: 0,
      };
      state.streams.set(channelArn, stream);
      await streamEvent(stream, 'Session Created');
      await streamEvent(stream, 'Stream Start');
      const config = state.recordingConfigurations.get(channel.recordingConfigurationArn);
      if (config) {
        const recording: Recording = {
          config,
          sessionId: randomId(16),
          prefix: recordingPrefix(channelArn, stream.startTime, randomId(12)),
          startedAt: stream.startTime,
          segmentsWritten: 0,
        };
        recordings.set(channelArn, recording);
        writeJson(join(recordingDir(recording), 'events/recording-started.json'), {
          version: 'v1',
          channel_arn: channelArn,
          recording_started_at: eventTime(recording.startedAt.getTime()),
          recording_status: 'RECORDING_STARTED',
          media: recordingMedia(config),
        });
        // The recording grows while live, as IVS writes it to S3 (the DVR reads its playlists).
        writeProgress(recording, now());
        recording.timer = setInterval(() => writeProgress(recording, now()), pattern.segmentSeconds * 1000);
        recording.timer.unref();
        await recordingEvent(stream, recording, 'Recording Start', 0);
      }
      return stream;
    },
    stop: end,
    async starve(channelArn) {
      const stream = liveStreamOf(channelArn);
      stream.health = 'STARVING';
      await emit('IVS Stream Health Change', channelArn, {
        event_name: 'Starvation Start',
        channel_name: state.channel(channelArn).name,
        stream_id: stream.streamId,
      });
    },
    async recover(channelArn) {
      const stream = liveStreamOf(channelArn);
      stream.health = 'HEALTHY';
      await emit('IVS Stream Health Change', channelArn, {
        event_name: 'Starvation End',
        channel_name: state.channel(channelArn).name,
        stream_id: stream.streamId,
      });
    },
    async failStream(channelArn, reason) {
      const { stream, recording } = takeLive(channelArn);
      await streamEvent(stream, 'Stream Failure', { reason });
      if (!recording) return;
      // What was recorded so far stays, with recording-failed.json, as IVS leaves it.
      const failure = 'InternalServerException';
      const result = writeRecording(channelArn, recording, now(), failure);
      await recordingEvent(stream, recording, 'Recording End Failure', result.durationMs, failure);
    },
    setViewerCount(channelArn, viewerCount) {
      liveStreamOf(channelArn).viewerCount = viewerCount;
    },
  };

  state.onStopStream((channelArn) => {
    end(channelArn).catch((error: unknown) => console.error('IVS stand-in: StopStream failed', error));
  });
  return broadcaster;
};
