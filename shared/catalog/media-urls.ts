import * as z from 'zod/mini';
import type { CreatorRecord, LiveRecording } from './model.ts';
import { MAX_URL_LENGTH } from '../schema/validation.ts';

/**
 * URLs of recorded media (pure): objects of the recordings bucket through the media CDN
 * (`{cdn_url}`, infra/media-cdn.ts), and the DVR playlist of a live channel. Kept apart from
 * shared/channels/recordings.ts (which reads S3 and writes the table) so that every bundle that shows
 * a stream can build these URLs without loading those clients.
 */

/** `{cdn_url}`: the media distribution in front of the recordings bucket (infra/media-cdn.ts). */
export const cdnUrl = () => (process.env.CDN_URL ?? 'https://cdn.example.com').replace(/\/+$/, '');

/** IVS's own hosts (playback `*.playback.live-video.net`, ingest `*.global-contribute.live-video.net`). */
const IVS_HOST = /(?:^|\.)live-video\.net\.?$/i;

/**
 * Is `url` one only the platform may issue: on the media CDN's host (any path, any scheme) or on
 * an IVS host? Creators can never name these in a request (docs/shows.md "Media URLs"): an upload
 * or a recording gets its URL from the platform, and the media CDN signs what it serves by the
 * platform's records (shared/playback/media-signing.ts), never by a URL a client chose.
 */
export const isPlatformMediaUrl = (url: string, cdn = cdnUrl()): boolean => {
  if (!URL.canParse(url)) return false; // not a URL at all: the URL check says so
  const host = new URL(url).hostname.toLowerCase().replace(/\.$/, '');
  return host === new URL(cdn).hostname.toLowerCase() || IVS_HOST.test(host);
};

/** The public URL of an object of the recordings bucket, through the media distribution. */
export const mediaUrlOf = (key: string, cdn = cdnUrl()): string =>
  `${cdn}/${key.split('/').map(encodeURIComponent).join('/')}`;

/**
 * The live thumbnail of a recording being written: the still IVS rewrites while live under
 * `media/latest_thumbnail/` (the recording configuration's LATEST storage), through the media CDN,
 * which serves thumbnails unsigned (docs/live.md "Live thumbnails").
 */
export const liveThumbnailUrlOf = (recording: Pick<LiveRecording, 'prefix'>, cdn = cdnUrl()): string =>
  mediaUrlOf(`${recording.prefix.replace(/\/+$/, '')}/media/latest_thumbnail/thumb.jpg`, cdn);

// ---- DVR while live ---------------------------------------------------------------------------

/**
 * The DVR playlist of a live creator: the master playlist of the recording IVS is writing of the
 * current stream, through the media CDN; undefined when the channel is offline or the current
 * stream's Recording Start has not been applied (yet, or ever: a channel without recording).
 * Pure: pass the creator item as read (it carries `live` and `live_recording`).
 */
export const dvrUrlOf = (
  creator: { live: CreatorRecord['live']; live_recording?: LiveRecording | null },
  cdn = cdnUrl(),
): string | undefined => {
  const recording = creator.live_recording;
  if (!creator.live || !recording || recording.stream_id !== creator.live.stream_id) return undefined;
  return mediaUrlOf(recording.playlist_key, cdn);
};

/**
 * An https URL on a domain name a user stores (a poster, a playlist, an avatar): at most
 * MAX_URL_LENGTH characters, and never on the platform's own media hosts (the media CDN, IVS):
 * those URLs the platform issues itself (`isPlatformMediaUrl` above).
 * `error` is the message for a value that is not an https URL.
 */
export const userMediaUrl = (error: string) =>
  z.url({ protocol: /^https$/, hostname: z.regexes.domain, error }).check(
    z.maxLength(MAX_URL_LENGTH, { error: `must be at most ${MAX_URL_LENGTH} characters` }),
    z.refine((url) => !isPlatformMediaUrl(url), {
      error:
        "must not point at the platform's media CDN or IVS: uploads and recordings get their URLs from the platform",
    }),
  );
