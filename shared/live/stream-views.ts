import type { CreatorRecord } from '../catalog/model.ts';
import { formatDuration } from '../format.ts';
import type { LiveQualityOption, LiveStreamMetadata, LiveStreamSummary } from './schemas.ts';

/**
 * Stream facts derived from a live creator record (spec 2.2, 2.5). Pure. URLs live under
 * CDN_URL (`{cdn_url}` of the spec); `streamUrls` is the one builder of live playback URLs.
 */
const cdn = () => process.env.CDN_URL ?? 'https://cdn.example.com';

/** Concrete renditions of every live stream, best first; `auto` lets the player adapt. */
export const QUALITY_OPTIONS = [
  { label: 'Auto', value: 'auto', description: 'Adapts to your connection (recommended)' },
  { label: '1080p', value: '1080p', bitrate_kbps: 6000, resolution: '1920x1080', frame_rate: 60 },
  { label: '720p', value: '720p', bitrate_kbps: 3000, resolution: '1280x720', frame_rate: 30 },
  { label: '480p', value: '480p', bitrate_kbps: 1500, resolution: '854x480', frame_rate: 30 },
  { label: '360p', value: '360p', bitrate_kbps: 800, resolution: '640x360', frame_rate: 30 },
] as const satisfies readonly LiveQualityOption[];

/**
 * Playback URLs of a creator's stream at `quality`, as docs/live.md "Playback tokens" lays out:
 * `{cdn}/live/<creator>/<stream>/t/<token>/[dvr/]` then `master.m3u8` (`auto`) or
 * `<quality>/index.m3u8`. The token is a path segment so that the URIs a player resolves relative
 * to a playlist (renditions, segments) keep it; the edge checks it and strips it before the
 * origin. Without `token`, the same URLs minus `t/<token>/`: a reference for summaries and
 * metadata that the edge refuses; a playable URL comes from `GET .../live/stream` or
 * `POST .../live/watch`.
 */
export const streamUrls = (creator: Pick<CreatorRecord, 'id' | 'live'>, quality: string, token?: string) => {
  const stream = `${cdn()}/live/${creator.id}/${creator.live?.stream_id ?? 'offline'}`;
  const base = token ? `${stream}/t/${encodeURIComponent(token)}` : stream;
  const playlist = quality === 'auto' ? 'master.m3u8' : `${quality}/index.m3u8`;
  return {
    stream_url: `${base}/${playlist}`,
    dvr_url: `${base}/dvr/${playlist}`,
    thumbnail_url: creator.live?.thumbnail_url ?? `${cdn()}/live/${creator.id}/offline.jpg`,
  };
};

/** Stream summary (spec 2.5) of a live creator; its URLs are tokenless references. */
export const streamSummary = (creator: CreatorRecord): LiveStreamSummary | null =>
  creator.live
    ? {
        stream_id: creator.live.stream_id,
        title: creator.live.title,
        started_at: creator.live.started_at,
        ...streamUrls(creator, 'auto'),
      }
    : null;

/** Stream metadata (spec 2.5) at `now`. */
export const streamMetadata = (creator: CreatorRecord, now: Date): LiveStreamMetadata => {
  const started = creator.live ? Date.parse(creator.live.started_at) : now.getTime();
  const uptime = Math.max(0, Math.floor((now.getTime() - started) / 1000));
  const urls = streamUrls(creator, 'auto');
  return {
    stream_id: creator.live?.stream_id ?? null,
    is_live: creator.live !== null,
    stream_health: creator.live ? 'good' : 'offline',
    started_at: creator.live?.started_at ?? null,
    uptime_seconds: uptime,
    uptime_formatted: formatDuration(uptime),
    latency_mode: 'low',
    bitrate_kbps: 6000,
    resolution: '1920x1080',
    frame_rate: 60,
    cdn: { provider: 'cloudfront', region: 'us-east-1', edge_location: 'IAD89' },
    drm: creator.channel.requires_subscription
      ? { enabled: true, type: 'widevine', license_url: `${cdn()}/drm/widevine/${creator.id}` }
      : { enabled: false, type: null, license_url: null },
    stream_urls: { hls: urls.stream_url, dvr: urls.dvr_url, thumbnail: urls.thumbnail_url },
  };
};
