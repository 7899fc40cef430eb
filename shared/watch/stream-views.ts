import type { CreatorRecord } from '../catalog/model.ts';
import { cdnUrl, dvrUrlOf } from '../catalog/media-urls.ts';
import { formatDuration } from '../format.ts';
import type { MediaSigner } from '../playback/media-signing.ts';
import type { LiveQualityOption, LiveStreamMetadata, LiveStreamSummary } from './schemas.ts';

/**
 * Stream facts derived from a live creator record (spec 2.2, 2.5). Pure. `streamUrls` is the one
 * builder of live playback URLs (IVS); thumbnails and offline references live under CDN_URL
 * (`{cdn_url}` of the spec).
 */

/** Concrete renditions of every live stream, best first; `auto` lets the player adapt. */
export const QUALITY_OPTIONS = [
  { label: 'Auto', value: 'auto', description: 'Adapts to your connection (recommended)' },
  { label: '1080p', value: '1080p', bitrate_kbps: 6000, resolution: '1920x1080', frame_rate: 60 },
  { label: '720p', value: '720p', bitrate_kbps: 3000, resolution: '1280x720', frame_rate: 30 },
  { label: '480p', value: '480p', bitrate_kbps: 1500, resolution: '854x480', frame_rate: 30 },
  { label: '360p', value: '360p', bitrate_kbps: 800, resolution: '640x360', frame_rate: 30 },
] as const satisfies readonly LiveQualityOption[];

/** What a watch session plays with: its IVS playback token and the viewer's media signer. */
export interface SessionPlayback {
  token: string;
  play: MediaSigner;
}

/**
 * Playback URLs of a creator's stream, as docs/live.md "Playback tokens" lays out: the IVS
 * channel's playback URL (its multivariant playlist; IVS playback URLs cannot be proxied or put
 * behind our own domain), with `?token=<ES384 JWT>` inside a watch session. The player picks a
 * rendition from the playlist: the session's `quality` is the viewer's choice the player applies
 * and analytics read, not a different URL. Without a session, the tokenless URL: a reference for
 * summaries and metadata that IVS refuses on a private channel; a playable URL comes from
 * `POST .../live/watch` (and PATCH, heartbeat, `GET .../live/stream` within the session).
 *
 * The DVR is the recording IVS is writing, through the media CDN, which requires a signed URL
 * (shared/playback/media-signing.ts): it comes only inside a watch session, signed for it; the
 * live URL stands in for it elsewhere (and before the recording has started).
 */
export const streamUrls = (
  creator: Pick<CreatorRecord, 'id' | 'live' | 'ivs' | 'channel' | 'live_recording'>,
  session?: SessionPlayback,
) => {
  const playback = creator.ivs?.playback_url ?? `${cdnUrl()}/live/${creator.id}/offline.m3u8`;
  const stream_url = session ? `${playback}?token=${encodeURIComponent(session.token)}` : playback;
  const dvr = session ? dvrUrlOf(creator) : undefined;
  return {
    stream_url,
    dvr_url: dvr && session ? session.play(dvr) : stream_url,
    thumbnail_url: creator.live?.thumbnail_url ?? `${cdnUrl()}/live/${creator.id}/offline.jpg`,
  };
};

/**
 * The spec's stream health of a creator: `offline` when not live, else IVS's ingest health as the
 * IVS events and the reconcile record it (`stream_health`: `healthy` → `good`, `starving` →
 * `poor`; not yet known → `good`).
 */
export const streamHealthOf = (creator: CreatorRecord & { stream_health?: string }) =>
  !creator.live ? 'offline' : creator.stream_health === 'starving' ? 'poor' : 'good';

/** Stream summary (spec 2.5) of a live creator; its URLs are tokenless references. */
export const streamSummary = (creator: CreatorRecord): LiveStreamSummary | null =>
  creator.live
    ? {
        stream_id: creator.live.stream_id,
        title: creator.live.title,
        started_at: creator.live.started_at,
        ...streamUrls(creator),
      }
    : null;

/** Stream metadata (spec 2.5) at `now`. */
export const streamMetadata = (creator: CreatorRecord, now: Date): LiveStreamMetadata => {
  const started = creator.live ? Date.parse(creator.live.started_at) : now.getTime();
  const uptime = Math.max(0, Math.floor((now.getTime() - started) / 1000));
  const urls = streamUrls(creator);
  return {
    stream_id: creator.live?.stream_id ?? null,
    is_live: creator.live !== null,
    stream_health: streamHealthOf(creator),
    started_at: creator.live?.started_at ?? null,
    uptime_seconds: uptime,
    uptime_formatted: formatDuration(uptime),
    latency_mode: 'low',
    bitrate_kbps: 6000,
    resolution: '1920x1080',
    frame_rate: 60,
    cdn: { provider: 'cloudfront', region: 'us-east-1', edge_location: 'IAD89' },
    drm: creator.channel.requires_subscription
      ? { enabled: true, type: 'widevine', license_url: `${cdnUrl()}/drm/widevine/${creator.id}` }
      : { enabled: false, type: null, license_url: null },
    stream_urls: { hls: urls.stream_url, dvr: urls.dvr_url, thumbnail: urls.thumbnail_url },
  };
};
