import { backoff } from '../backoff.ts';
import { createHash } from 'node:crypto';
import * as z from 'zod/mini';
import type { CreatorRecord, EpisodeRecord, LiveRecording, SeasonRecord } from '../catalog/model.ts';
import {
  getStoredCreator,
  setCreatorLiveRecording,
  setCreatorLiveThumbnail,
} from '../creators/creator-repository.ts';
import { transact } from '../db/transaction.ts';
import {
  deletePendingRecording,
  deletePendingRecordingOperation,
  isRecordingPublished,
  listPendingRecordings,
  putPendingRecording,
  putRecordingMarkerOperation,
} from '../ivs/recording-repository.ts';
import { logger } from '../observability/index.ts';
import { readRecordingsObject } from '../playback/recordings-bucket.ts';
import { getAccount } from '../identity/account-repository.ts';
import { cdnUrl, liveThumbnailUrlOf, mediaUrlOf } from '../catalog/media-urls.ts';
import {
  getStoredShow,
  lastEpisodePlace,
  putEpisodeOperation,
  putNewShow,
  type NewShow,
  showClockOperation,
} from '../shows/show-repository.ts';
import { newShow } from '../studio/show-writes.ts';

/**
 * Recordings of IVS broadcasts (docs/ivs-events.md "Recordings"): what the IVS event function does
 * with `Recording Start` and `Recording End` once the reducer (channel-state.ts) has found the
 * creator. Every media path comes from the metadata IVS writes next to the recording
 * (`<prefix>/events/recording-started.json`, `recording-ended.json`: "IVS Auto-Record to Amazon
 * S3"), never from a guess at IVS's layout.
 * - Recording Start: the recording's master playlist key goes on the creator item
 *   (`live_recording`), so while the stream is live `dvrUrlOf` plays the recording as IVS writes
 *   it (the pattern of aws-samples/amazon-ivs-dvr-web-demo).
 * - Recording End: the broadcast becomes an episode of the creator's "Live" show (the on-demand
 *   list `/creators/{id}/channel/ondemand` is the creator's episodes; the projector lists it like
 *   any studio episode). Once per stream: a marker item keyed by the stream id is written in the
 *   same transaction, so a repeated or late Recording End writes nothing.
 * S3 and DynamoDB errors are thrown (the event is retried); a metadata document that is not JSON
 * or not the documented shape is reported (`recording-dropped`), not thrown: it would fail the
 * same way on every retry.
 */

// ---- The metadata documents ------------------------------------------------------------------

/** A relative S3 path as IVS writes them (`media/hls`, `master.m3u8`): no `..`, no leading `/`. */
const relativePath = /* @__PURE__ */ (() =>
  z.string().check(
    z.regex(/^[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+)*$/, { error: 'must be a relative path' }),
    z.refine((path) => !path.split('/').includes('..'), { error: 'must not leave the recording' }),
  ))();
const instant = /* @__PURE__ */ (() => z.iso.datetime({ offset: true }))();
const thumbnails = /* @__PURE__ */ (() => z.optional(z.object({ path: relativePath })))();

/** `events/recording-started.json`: where the recording's playlists are being written. */
export const recordingStartedDocument = /* @__PURE__ */ (() =>
  z.object({
    version: z.string(),
    channel_arn: z.string(),
    recording_started_at: instant,
    recording_status: z.literal('RECORDING_STARTED'),
    media: z.object({ hls: z.object({ path: relativePath, playlist: relativePath }) }),
  }))();

/** `events/recording-ended.json`: the finished recording (its duration, playlists and thumbnails). */
export const recordingEndedDocument = /* @__PURE__ */ (() =>
  z.object({
    version: z.string(),
    channel_arn: z.string(),
    recording_started_at: instant,
    recording_ended_at: instant,
    recording_status: z.literal('RECORDING_ENDED'),
    media: z.object({
      hls: z.object({
        duration_ms: z.number().check(z.nonnegative()),
        path: relativePath,
        playlist: relativePath,
      }),
      /** SEQUENTIAL storage: a folder of `thumb<n>.jpg`. */
      thumbnails,
      /** LATEST storage: `media/latest_thumbnail/thumb.jpg` (a file, or its folder). */
      latest_thumbnail: thumbnails,
    }),
  }))();
export type RecordingEndedDocument = z.infer<typeof recordingEndedDocument>;

type Parsed<T> = { ok: true; doc: T } | { ok: false; error: string };

const parseDocument = <T>(schema: z.ZodMiniType<T>, text: string): Parsed<T> => {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `not JSON: ${(error as Error).message}` };
  }
  const result = schema.safeParse(json);
  if (result.success) return { ok: true, doc: result.data };
  return {
    ok: false,
    error: result.error.issues
      .map((issue) => `${issue.path.map(String).join('.') || '(root)'}: ${issue.message}`)
      .join('; '),
  };
};

// ---- S3 ---------------------------------------------------------------------------------------

/** A key under the recording's prefix (IVS's prefixes have no trailing `/`; tolerate one). */
const keyIn = (prefix: string, ...paths: string[]) => [prefix.replace(/\/+$/, ''), ...paths].join('/');

/** What a Recording End or Start led to, for the handler's log line. */
export type RecordingOutcome =
  | { kind: 'dvr-ready'; creatorId: string; streamId: string; playlistKey: string }
  | {
      kind: 'recording-published';
      creatorId: string;
      streamId: string;
      showId: string;
      episodeId: string;
      access: EpisodeRecord['access'];
    }
  /** Already published (a repeated or late Recording End), or an older Recording Start. */
  | {
      kind: 'recording-stale';
      creatorId: string;
      streamId: string;
      event: 'Recording Start' | 'Recording End';
    }
  /** The metadata document is not JSON or not the documented shape: logged, not retried. */
  | { kind: 'recording-dropped'; creatorId: string; streamId: string; key: string; error: string }
  /** The creator item is gone or has no IVS channel any more; or the recording is in another bucket. */
  | {
      kind: 'recording-ignored';
      creatorId: string;
      streamId: string;
      reason: 'no-ivs-creator' | 'foreign-bucket' | 'moderated' | 'account-deleted';
    };

/** The recording of an IVS Recording Start/End event, as the reducer reports it. */
export interface RecordingRef {
  creatorId: string;
  bucket: string;
  prefix: string;
  streamId: string;
}

export interface RecordingDeps {
  warn: (message: string, fields: Record<string, unknown>) => void;
}
const defaultDeps: RecordingDeps = { warn: (message, fields) => logger.warn(message, fields) };

/**
 * A recording outside the stack's recordings bucket (`RECORDINGS_BUCKET`, set with the function's
 * read grant): another recording configuration's, which this function may not read anyway.
 */
const foreignBucket = (ref: RecordingRef, deps: RecordingDeps): RecordingOutcome | undefined => {
  const ours = process.env.RECORDINGS_BUCKET;
  if (!ours || ref.bucket === ours) return undefined;
  deps.warn('IVS recording in a bucket that is not the recordings bucket: ignored', { ...ref, ours });
  return {
    kind: 'recording-ignored',
    creatorId: ref.creatorId,
    streamId: ref.streamId,
    reason: 'foreign-bucket',
  };
};

const dropped = (ref: RecordingRef, key: string, error: string, deps: RecordingDeps): RecordingOutcome => {
  deps.warn('IVS recording metadata unreadable: dropped', { ...ref, key, error });
  return { kind: 'recording-dropped', creatorId: ref.creatorId, streamId: ref.streamId, key, error };
};

/**
 * Recording Start at `startedMs`: reads recording-started.json and records where the recording's
 * master playlist is being written on the creator item (`live_recording`), unless a later
 * recording's start is already there. One conditional UpdateItem; `version` is left alone (no
 * view depends on it: the live endpoints read it from the creator item).
 */
export const noteRecordingStarted = async (
  ref: RecordingRef,
  startedMs: number,
  deps: RecordingDeps = defaultDeps,
): Promise<RecordingOutcome> => {
  const foreign = foreignBucket(ref, deps);
  if (foreign) return foreign;
  const key = keyIn(ref.prefix, 'events/recording-started.json');
  const parsed = parseDocument(recordingStartedDocument, await readRecordingsObject(ref.bucket, key));
  if (!parsed.ok) return dropped(ref, key, parsed.error, deps);
  const { hls } = parsed.doc.media;
  const recording: LiveRecording = {
    stream_id: ref.streamId,
    bucket: ref.bucket,
    prefix: ref.prefix,
    playlist_key: keyIn(ref.prefix, hls.path, hls.playlist),
    started_ms: startedMs,
  };
  if (!(await setCreatorLiveRecording(ref.creatorId, recording)))
    return {
      kind: 'recording-stale',
      creatorId: ref.creatorId,
      streamId: ref.streamId,
      event: 'Recording Start',
    };
  await putPendingRecording(
    { creator_id: ref.creatorId, bucket: ref.bucket, prefix: ref.prefix, stream_id: ref.streamId },
    startedMs,
  );
  // The live thumbnail while this stream is the current one (a Stream Start that comes later takes
  // it from `live_recording` itself, shared/channels/channel-state.ts).
  await setCreatorLiveThumbnail(ref.creatorId, {
    streamId: ref.streamId,
    url: liveThumbnailUrlOf(recording),
  });
  return {
    kind: 'dvr-ready',
    creatorId: ref.creatorId,
    streamId: ref.streamId,
    playlistKey: recording.playlist_key,
  };
};

// ---- On demand --------------------------------------------------------------------------------

const hex = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 12);

/** The id of the episode a stream's recording becomes: the same for every delivery of its Recording End. */
export const recordingEpisodeId = (streamId: string): string => `ep_${hex(`recording:${streamId}`)}`;

/** The creator's show of recorded broadcasts, made with its first recording. */
export const liveShowId = (creatorId: string): string => `sh_${hex(`live-show:${creatorId}`)}`;

type CreatorItem = CreatorRecord & { live_title?: string };

const EPISODES_PER_SEASON = 999;
const MAX_SEASON = 99;
/** Attempts when another episode write to the show won the race for its version. */
const ATTEMPTS = 8;

const dateOf = (iso: string) =>
  new Intl.DateTimeFormat('en-US', {
    timeZone: 'UTC',
    month: 'short',
    day: 'numeric',
    year: 'numeric',
  }).format(new Date(iso));

/** The thumbnail key: LATEST's file, else the first of SEQUENTIAL's (`thumb0.jpg`), else none. */
const thumbnailKey = (prefix: string, media: RecordingEndedDocument['media']): string | undefined => {
  if (media.latest_thumbnail) {
    const { path } = media.latest_thumbnail;
    return keyIn(prefix, path.endsWith('.jpg') ? path : `${path}/thumb.jpg`);
  }
  if (media.thumbnails) return keyIn(prefix, media.thumbnails.path, 'thumb0.jpg');
  return undefined;
};

/**
 * The episode of a finished recording, placed by the caller. Title: the creator's stream title
 * (`live_title`) when set, else `Live: <date>` (UTC, the recording's start). Access: `premium`
 * when the creator's channel requires a subscription (`channel.requires_subscription`), else
 * `free`, as for the live channel itself.
 */
export const recordingEpisode = (
  creator: CreatorItem,
  ref: RecordingRef,
  doc: RecordingEndedDocument,
  place: { showId: string; season: number; episodeNumber: number },
  cdn = cdnUrl(),
): EpisodeRecord => {
  const { hls } = doc.media;
  const thumbnail = thumbnailKey(ref.prefix, doc.media);
  return {
    id: recordingEpisodeId(ref.streamId),
    show_id: place.showId,
    creator_id: creator.id,
    season: place.season,
    episode_number: place.episodeNumber,
    title: creator.live_title?.trim() || `Live: ${dateOf(doc.recording_started_at)}`,
    description: `Recorded live on ${dateOf(doc.recording_started_at)}.`,
    duration_seconds: Math.round(hls.duration_ms / 1000),
    views: 0,
    access: creator.channel.requires_subscription ? 'premium' : 'free',
    price: null,
    currency: null,
    stream_url: mediaUrlOf(keyIn(ref.prefix, hls.path, hls.playlist), cdn),
    air_date: new Date(doc.recording_started_at).toISOString(),
    thumbnail_url: thumbnail
      ? mediaUrlOf(thumbnail, cdn)
      : (creator.live?.thumbnail_url ?? creator.avatar_url ?? `${cdn}/thumbnails/live.jpg`),
    ...(creator.suspended_at ? { creator_suspended: true } : {}),
  };
};

/** The creator's Live show as it is made with the first recording (version 1). */
const newLiveShow = (creator: CreatorItem, episode: EpisodeRecord): NewShow => ({
  ...newShow(
    creator,
    liveShowId(creator.id),
    {
      title: `${creator.name} Live`,
      description: `Past live broadcasts of ${creator.name}, recorded on their channel.`,
      category: creator.category,
      rating: 'TV-14',
      tags: ['live'],
      thumbnail_url: episode.thumbnail_url,
    },
    new Date(episode.air_date),
  ),
  ...(creator.suspended_at ? { creator_suspended: true } : {}),
});

/** The show's next free position: after its last episode. */
const nextPlace = async (showId: string): Promise<{ season: number; episodeNumber: number }> => {
  const last = await lastEpisodePlace(showId);
  if (!last) return { season: 1, episodeNumber: 1 };
  const { season, episodeNumber: episode } = last;
  if (episode < EPISODES_PER_SEASON) return { season, episodeNumber: episode + 1 };
  if (season >= MAX_SEASON) throw new Error(`show ${showId} is full (${MAX_SEASON} seasons)`);
  return { season: season + 1, episodeNumber: 1 };
};

const seasonsWith = (seasons: readonly SeasonRecord[], add: number): SeasonRecord[] =>
  [...new Set([...seasons.map((s) => s.number), add])]
    .sort((a, b) => a - b)
    .map((number) => ({ number, title: `Season ${number}` }));

/**
 * Recording End: the broadcast becomes an on-demand episode of the creator's Live show, once.
 * Reads: the marker (a repeat stops here, before S3), the creator, recording-ended.json, the show
 * and its last episode. Writes, in one transaction: the marker (`attribute_not_exists`), the
 * episode (`attribute_not_exists`) and the show's seasons and version (`version = v`: the studio's
 * episode clock, shared/studio/show-writes.ts); the show itself is put first if it does not exist.
 * A lost race on the show's version is read again and retried; a lost race on the marker is a
 * duplicate (`recording-stale`).
 */
export const publishRecording = async (
  ref: RecordingRef,
  deps: RecordingDeps = defaultDeps,
): Promise<RecordingOutcome> => {
  const { creatorId, streamId } = ref;
  const stale: RecordingOutcome = { kind: 'recording-stale', creatorId, streamId, event: 'Recording End' };
  const foreign = foreignBucket(ref, deps);
  if (foreign) return foreign;
  if (await isRecordingPublished(streamId)) return stale;
  const [creator, account] = await Promise.all([getStoredCreator(creatorId), getAccount(creatorId)]);
  if (!creator?.ivs) {
    deps.warn('IVS recording of a creator without an IVS channel: ignored', { ...ref });
    return { kind: 'recording-ignored', creatorId, streamId, reason: 'no-ivs-creator' };
  }
  // A deleted creator's last broadcast (DELETE /me stops it) becomes no episode: the purge, 15
  // minutes on, would delete it, and one written as the purge runs would outlive the account.
  if (account?.deleted_at) {
    deps.warn('IVS recording of a deleted account: not published', { ...ref });
    return { kind: 'recording-ignored', creatorId, streamId, reason: 'account-deleted' };
  }
  // A stream an operator stopped for moderation (shared/studio/moderation.ts records it before
  // StopStream, so before this Recording End) does not become on-demand content.
  if ((creator.moderation as { stream_id?: string | null } | undefined)?.stream_id === streamId) {
    deps.warn('IVS recording of a stream stopped for moderation: not published', { ...ref });
    return { kind: 'recording-ignored', creatorId, streamId, reason: 'moderated' };
  }
  const key = keyIn(ref.prefix, 'events/recording-ended.json');
  const parsed = parseDocument(recordingEndedDocument, await readRecordingsObject(ref.bucket, key));
  if (!parsed.ok) return dropped(ref, key, parsed.error, deps);

  const showId = liveShowId(creatorId);
  for (let attempt = 1; ; attempt++) {
    const show = await getStoredShow(showId);
    const place = await nextPlace(showId);
    const episode = recordingEpisode(creator, ref, parsed.doc, { showId, ...place });
    if (!show) {
      // The first recording: the show (unless a concurrent delivery made it), then (next turn)
      // its first episode.
      await putNewShow(newLiveShow(creator, episode));
      continue;
    }
    const outcome = await transact([
      putRecordingMarkerOperation(streamId, {
        creator_id: creatorId,
        show_id: showId,
        episode_id: episode.id,
        season: episode.season,
        episode_number: episode.episode_number,
      }),
      putEpisodeOperation({ ...episode, version: show.version + 1 }),
      // No longer pending (a no-op when Recording Start never came).
      deletePendingRecordingOperation(streamId),
      showClockOperation(show, seasonsWith(show.seasons, episode.season), { added: episode }),
    ]);
    if (outcome.written)
      return {
        kind: 'recording-published',
        creatorId,
        streamId,
        showId,
        episodeId: episode.id,
        access: episode.access,
      };
    if (outcome.failed.includes(0)) return stale;
    if (attempt >= ATTEMPTS)
      throw new Error(`show ${showId} kept changing: recording of ${streamId} not published`);
    await backoff(attempt, 12.5, 250);
  }
};

/** What the live minute's recording repair did. */
export interface RecordingRepairReport {
  /** Recordings started and not published whose stream is no longer live. */
  looked: number;
  published: number;
  /** recording-ended.json not there yet (IVS writes it after its reconnect window): next minute. */
  waiting: number;
}

/**
 * The repair of recordings whose Recording End was lost (not delivered, or its function failed
 * for good): every pending recording (Recording Start seen, no episode yet) whose stream is not
 * among `liveStreamIds` (ListStreams' LIVE streams, read by the same live minute) is published
 * from its recording-ended.json as the Recording End would have (`publishRecording`: once per
 * stream, whatever races it); one whose file is not there yet waits for the next minute. Any
 * other outcome (published, stale, ignored, dropped) ends its pending state. Reads: one Query of
 * the pending partition (the recordings in progress), then per finished one what Recording End reads.
 */
export const repairLostRecordings = async (
  liveStreamIds: ReadonlySet<string>,
  now: Date,
  deps: RecordingDeps = defaultDeps,
): Promise<RecordingRepairReport> => {
  const pending = await listPendingRecordings(now);
  const report: RecordingRepairReport = { looked: 0, published: 0, waiting: 0 };
  for (const item of pending) {
    const ref: RecordingRef = {
      creatorId: item.creator_id,
      bucket: item.bucket,
      prefix: item.prefix,
      streamId: item.stream_id,
    };
    if (liveStreamIds.has(ref.streamId)) continue;
    report.looked++;
    let outcome: RecordingOutcome;
    try {
      outcome = await publishRecording(ref, deps);
    } catch (error) {
      if ((error as { name?: string }).name !== 'NoSuchKey') throw error;
      report.waiting++;
      continue;
    }
    if (outcome.kind === 'recording-published') {
      report.published++;
      deps.warn('IVS recording published by the repair: its Recording End was lost', { ...ref });
    }
    await deletePendingRecording(ref.streamId);
  }
  return report;
};
