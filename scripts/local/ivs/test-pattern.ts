import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';

/**
 * The local IVS stand-in's video: a real H.264/AAC HLS test pattern (ffmpeg's `testsrc2` picture
 * and a `sine` tone) generated once into `.local/ivs/pattern/`, and the playlists built over it.
 * The live media playlist is computed from the wall clock, so a player sees an advancing live
 * stream (the media sequence moves on every segment duration, the segments loop with an
 * EXT-X-DISCONTINUITY at each wrap) without any encoder process running.
 */

const run = promisify(execFile);
const ffmpegPath = (): string =>
  (createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as { path: string }).path;

export const DEFAULT_PATTERN_DIR = resolve(import.meta.dirname, '../../../.local/ivs/pattern');

/** One rendition, like IVS's `360p30`: the name is the folder recordings and playlists use. */
export const RENDITION = {
  name: '360p30',
  width: 640,
  height: 360,
  frameRate: 30,
  /** Peak bits per second announced in the multivariant playlist (video 400k + audio 64k + TS overhead). */
  bandwidth: 560_000,
  /** H.264 Main level 3.0 and AAC-LC, as the encoder settings below produce. */
  codecs: 'avc1.4d401e,mp4a.40.2',
} as const;

const SEGMENT_SECONDS = 2;
const SEGMENT_COUNT = 12;
/** Written last: its presence means the folder holds a complete pattern. */
const MANIFEST = 'pattern.json';

export interface TestPattern {
  dir: string;
  /** Segment file names in play order, each `segmentSeconds` long. */
  segments: string[];
  segmentSeconds: number;
  /** A JPEG still of the first frame, for recording thumbnails. */
  thumbnail: string;
}

const encode = async (dir: string): Promise<void> => {
  const ffmpeg = ffmpegPath();
  const gop = SEGMENT_SECONDS * RENDITION.frameRate;
  // A fixed GOP equal to the segment length (no scene-cut keyframes) makes every segment exactly
  // SEGMENT_SECONDS long and start on a keyframe, which the clock-driven live playlist relies on.
  await run(ffmpeg, [
    ...['-hide_banner', '-loglevel', 'error', '-y'],
    ...[
      '-f',
      'lavfi',
      '-i',
      `testsrc2=size=${RENDITION.width}x${RENDITION.height}:rate=${RENDITION.frameRate}`,
    ],
    ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000'],
    ...['-t', String(SEGMENT_SECONDS * SEGMENT_COUNT)],
    ...[
      '-c:v',
      'libx264',
      '-profile:v',
      'main',
      '-level',
      '3.0',
      '-preset',
      'veryfast',
      '-pix_fmt',
      'yuv420p',
    ],
    ...['-b:v', '400k', '-maxrate', '400k', '-bufsize', '800k'],
    ...['-g', String(gop), '-keyint_min', String(gop), '-sc_threshold', '0'],
    ...['-c:a', 'aac', '-b:a', '64k', '-ac', '2'],
    ...[
      '-f',
      'hls',
      '-hls_time',
      String(SEGMENT_SECONDS),
      '-hls_list_size',
      '0',
      '-hls_playlist_type',
      'vod',
    ],
    ...['-hls_segment_filename', join(dir, 'seg%03d.ts'), join(dir, 'source.m3u8')],
  ]);
  await run(ffmpeg, [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-i', join(dir, 'seg000.ts')],
    ...['-frames:v', '1', '-q:v', '4', join(dir, 'thumb.jpg')],
  ]);
};

const readManifest = (dir: string): TestPattern | undefined => {
  const path = join(dir, MANIFEST);
  if (!existsSync(path)) return undefined;
  const { segments, segmentSeconds } = JSON.parse(readFileSync(path, 'utf8')) as TestPattern;
  return { dir, segments, segmentSeconds, thumbnail: join(dir, 'thumb.jpg') };
};

const generating = new Map<string, Promise<TestPattern>>();

const generate = async (dir: string): Promise<TestPattern> => {
  mkdirSync(dirname(dir), { recursive: true });
  const scratch = `${dir}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  mkdirSync(scratch, { recursive: true });
  try {
    await encode(scratch);
    const segments = readFileSync(join(scratch, 'source.m3u8'), 'utf8')
      .split('\n')
      .filter((line) => line.endsWith('.ts'));
    if (segments.length !== SEGMENT_COUNT) {
      throw new Error(`ffmpeg wrote ${segments.length} segments, expected ${SEGMENT_COUNT}`);
    }
    writeFileSync(join(scratch, MANIFEST), JSON.stringify({ segments, segmentSeconds: SEGMENT_SECONDS }));
    // Another process may have put its complete copy in place meanwhile: keep that one (it may be
    // serving). Anything else at `dir` is a stale, incomplete folder.
    if (!readManifest(dir)) {
      rmSync(dir, { recursive: true, force: true });
      try {
        renameSync(scratch, dir);
      } catch (error) {
        if (!readManifest(dir)) throw error;
      }
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  const pattern = readManifest(dir);
  if (!pattern) throw new Error(`test pattern missing from ${dir} after generation`);
  return pattern;
};

/**
 * Returns the cached pattern, generating it first when missing (about 2 s). Generation writes to a
 * private temporary folder that is renamed into place, so parallel test workers never see (or
 * serve) a half-written pattern; the loser of a race discards its copy.
 */
export const ensureTestPattern = (dir: string = DEFAULT_PATTERN_DIR): Promise<TestPattern> => {
  const cached = readManifest(dir);
  if (cached) return Promise.resolve(cached);
  // One generation per folder in this process, however many callers wait for it.
  let pending = generating.get(dir);
  if (!pending) {
    pending = generate(dir).finally(() => generating.delete(dir));
    generating.set(dir, pending);
  }
  return pending;
};

/** The multivariant playlist: one variant, `mediaUri` being the media playlist's URI. */
export const multivariantPlaylist = (mediaUri: string): string =>
  [
    '#EXTM3U',
    '#EXT-X-INDEPENDENT-SEGMENTS',
    `#EXT-X-STREAM-INF:BANDWIDTH=${RENDITION.bandwidth},RESOLUTION=${RENDITION.width}x${RENDITION.height},` +
      `CODECS="${RENDITION.codecs}",FRAME-RATE=${RENDITION.frameRate}.000`,
    mediaUri,
    '',
  ].join('\n');

export interface LivePlaylistOptions {
  /** When the stream went live (ms since the epoch). */
  startedAt: number;
  now: number;
  /** Segments listed (IVS lists a few; hls.js starts 3 target durations from the live edge). */
  windowSize?: number;
  /** The URI of the segment with media sequence number `sequence` (it plays `file`). */
  segmentUri: (sequence: number, file: string) => string;
  /**
   * Timed metadata put on the channel (PutMetadata): each one of the window (or the window's length
   * before it) becomes an `EXT-X-DATERANGE` (class `com.amazon.ivs.metadata`, the text base64 in
   * `X-METADATA`) at the time it was put, after an `EXT-X-PROGRAM-DATE-TIME` anchoring the window
   * (RFC 8216 4.3.2.7). IVS itself carries timed metadata as ID3 in the segments; a DATERANGE is
   * what the stand-in can add without rewriting the test pattern's segments (docs/local-ivs.md).
   */
  metadata?: ReadonlyArray<{ at: Date; metadata: string }>;
}

/** Which pattern file plays at a media sequence number: the pattern loops. */
export const segmentFileAt = (pattern: TestPattern, sequence: number): string =>
  pattern.segments[sequence % pattern.segments.length]!;

/**
 * The live media playlist at `now`: the window moves on one segment every `segmentSeconds`, so
 * EXT-X-MEDIA-SEQUENCE advances with the wall clock. Each loop wrap is an EXT-X-DISCONTINUITY
 * (timestamps restart), and EXT-X-DISCONTINUITY-SEQUENCE counts the wraps that left the window,
 * as RFC 8216 (6.2.2) requires of a server removing segments.
 */
export const liveMediaPlaylist = (pattern: TestPattern, options: LivePlaylistOptions): string => {
  const windowSize = options.windowSize ?? 5;
  const count = pattern.segments.length;
  const first = Math.max(0, Math.floor((options.now - options.startedAt) / (pattern.segmentSeconds * 1000)));
  const lines = [
    '#EXTM3U',
    '#EXT-X-VERSION:3',
    `#EXT-X-TARGETDURATION:${pattern.segmentSeconds}`,
    `#EXT-X-MEDIA-SEQUENCE:${first}`,
    `#EXT-X-DISCONTINUITY-SEQUENCE:${Math.max(0, Math.ceil(first / count) - 1)}`,
  ];
  // Cues from a window's length before it to its end: a player a few segments behind the live
  // edge (hls.js starts three back) still gets one put just before its position.
  const segmentMs = pattern.segmentSeconds * 1000;
  const windowStart = options.startedAt + first * segmentMs;
  const cues = (options.metadata ?? []).filter(
    (cue) =>
      cue.at.getTime() >= windowStart - windowSize * segmentMs &&
      cue.at.getTime() < windowStart + windowSize * segmentMs,
  );
  for (let sequence = first; sequence < first + windowSize; sequence++) {
    if (sequence > 0 && sequence % count === 0) lines.push('#EXT-X-DISCONTINUITY');
    if (sequence === first && cues.length > 0) {
      lines.push(`#EXT-X-PROGRAM-DATE-TIME:${new Date(windowStart).toISOString()}`);
      for (const cue of cues)
        lines.push(
          `#EXT-X-DATERANGE:ID="cue-${cue.at.getTime()}",CLASS="com.amazon.ivs.metadata",START-DATE="${cue.at.toISOString()}",X-METADATA="${Buffer.from(cue.metadata).toString('base64')}"`,
        );
    }
    lines.push(
      `#EXTINF:${pattern.segmentSeconds.toFixed(3)},`,
      options.segmentUri(sequence, segmentFileAt(pattern, sequence)),
    );
  }
  return `${lines.join('\n')}\n`;
};

/**
 * A finished (VOD) media playlist of `segmentCount` segments, as a recording's rendition has. With
 * `inProgress`, the playlist of a recording still being written: type EVENT (segments are only
 * ever appended) and no EXT-X-ENDLIST, so a player keeps reloading it (DVR while live).
 */
export const vodMediaPlaylist = (
  pattern: TestPattern,
  segmentCount: number,
  segmentUri: (sequence: number) => string,
  options: { inProgress?: boolean } = {},
): string => {
  const lines = [
    '#EXTM3U',
    '#EXT-X-VERSION:3',
    `#EXT-X-TARGETDURATION:${pattern.segmentSeconds}`,
    '#EXT-X-MEDIA-SEQUENCE:0',
    `#EXT-X-PLAYLIST-TYPE:${options.inProgress ? 'EVENT' : 'VOD'}`,
  ];
  for (let sequence = 0; sequence < segmentCount; sequence++) {
    if (sequence > 0 && sequence % pattern.segments.length === 0) lines.push('#EXT-X-DISCONTINUITY');
    lines.push(`#EXTINF:${pattern.segmentSeconds.toFixed(3)},`, segmentUri(sequence));
  }
  if (!options.inProgress) lines.push('#EXT-X-ENDLIST');
  return `${lines.join('\n')}\n`;
};
