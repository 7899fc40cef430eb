import { readRecordingsObject } from './recordings-bucket.ts';

/**
 * Recorded playlists that carry their signature to their children (docs/live.md "Recorded media:
 * signed URLs", issue 34): the media CDN serves every HLS playlist IVS records (`ivs/…/*.m3u8`)
 * through this, after CloudFront has checked the request's signature; each relative URI in it (a
 * rendition playlist, a segment, an `EXT-X-MAP`…) gets the request's CloudFront credentials
 * appended, so a player that resolves URIs as RFC 3986 says (dropping the query) still sends the
 * signature with every child request: plain hls.js, AVPlayer, ExoPlayer, no `xhrSetup`, no cookies.
 *
 * It grants nothing new: the policy the viewer was signed for covers one recording's whole HLS
 * prefix (shared/playback/media-signing.ts), so the children it can open are the ones it already
 * could, and a URI outside the prefix (or absolute, on another host) is refused by CloudFront or
 * left untouched. A request with no query (signed cookies) is served as stored.
 */

/** CloudFront's signed-URL parameters: the credentials a child request must repeat. */
const SIGNATURE_PARAMS = ['Policy', 'Signature', 'Key-Pair-Id', 'Hash-Algorithm', 'Expires'] as const;

/** The signed-URL parameters of a raw query (`a=1&Policy=…&Signature=…`), as sent: `Policy=…&Signature=…`; '' for none. */
export const signatureQuery = (rawQuery: string): string =>
  rawQuery
    .split('&')
    .filter((pair) => (SIGNATURE_PARAMS as readonly string[]).includes(pair.split('=')[0]!))
    .join('&');

/** A URI the player resolves against the playlist's own URL (no scheme, no `//host`). */
const isRelative = (uri: string) => uri !== '' && !/^[a-z][a-z0-9+.-]*:/i.test(uri) && !uri.startsWith('//');

const withQuery = (uri: string, query: string) =>
  isRelative(uri) ? `${uri}${uri.includes('?') ? '&' : '?'}${query}` : uri;

/**
 * `playlist` (an HLS multivariant or media playlist) with `query` appended to each relative URI:
 * the URI lines and every tag's `URI="…"` attribute (EXT-X-MEDIA, EXT-X-MAP, EXT-X-KEY, EXT-X-PART…).
 */
export const carrySignature = (playlist: string, query: string): string => {
  if (query === '') return playlist;
  return playlist
    .split('\n')
    .map((line) => {
      const text = line.replace(/\r$/, '');
      if (text.startsWith('#'))
        return line.replace(/URI="([^"]*)"/g, (_, uri: string) => `URI="${withQuery(uri, query)}"`);
      return text.trim() === '' ? line : line.replace(text, withQuery(text, query));
    })
    .join('\n');
};

/** What the media CDN answers for a playlist request. */
export type PlaylistResponse = { status: 200; body: string } | { status: 403 | 404 };

/** IVS's recorded playlists: `ivs/…/<name>.m3u8`, no `..`. */
const RECORDED_PLAYLIST = /^ivs\/(?:[^/]+\/)+[^/]+\.m3u8$/;

const errorName = (error: unknown) => (error as { name?: string } | undefined)?.name;

/**
 * The playlist at `path` (the request's path, `/ivs/…/master.m3u8`) of the recordings bucket
 * (`RECORDINGS_BUCKET`), its children carrying `rawQuery`'s signature; 404 when it is not there
 * (or not a recorded playlist), 403 when S3 refuses it, as CloudFront over the bucket answers.
 */
export const signedPlaylist = async (path: string, rawQuery: string): Promise<PlaylistResponse> => {
  const key = decodeURIComponent(path.replace(/^\/+/, ''));
  if (!RECORDED_PLAYLIST.test(key) || key.split('/').includes('..')) return { status: 404 };
  const bucket = process.env.RECORDINGS_BUCKET;
  if (!bucket) throw new Error('RECORDINGS_BUCKET is not set');
  try {
    return {
      status: 200,
      body: carrySignature(await readRecordingsObject(bucket, key), signatureQuery(rawQuery)),
    };
  } catch (error) {
    if (errorName(error) === 'NoSuchKey') return { status: 404 };
    if (errorName(error) === 'AccessDenied') return { status: 403 };
    throw error;
  }
};
