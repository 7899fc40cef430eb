import { worker } from '../../shared/platform/worker.ts';
import { signedPlaylist } from '../../shared/playback/signed-playlists.ts';
import { mediaPlaylistRow } from '../workers.ts';

/** The part of a Lambda function URL request (CloudFront's origin request) the playlist needs. */
export interface PlaylistRequest {
  rawPath: string;
  rawQueryString?: string;
}

const HLS = 'application/vnd.apple.mpegurl';

/**
 * The media CDN's origin for recorded HLS playlists (`ivs/*.m3u8`, infra/media-cdn.ts; locally
 * the media CDN stand-in calls it as its Lambda): CloudFront has checked the request's signature;
 * this answers the playlist with that signature carried to every child
 * (shared/playback/signed-playlists.ts), so plain hls.js plays a recording.
 */
export const handler = worker(mediaPlaylistRow, async (request: PlaylistRequest) => {
  const playlist = await signedPlaylist(request.rawPath, request.rawQueryString ?? '');
  if (playlist.status !== 200)
    return {
      statusCode: playlist.status,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: playlist.status === 404 ? 'Not found' : 'Access denied' }),
    };
  // A recording's playlists grow while it is recorded (the DVR): a second at the edge (infra/media-cdn.ts).
  return {
    statusCode: 200,
    headers: { 'content-type': HLS, 'cache-control': 'max-age=1' },
    body: playlist.body,
  };
});
