import { createPrivateKey, type KeyObject, sign } from 'node:crypto';
import { cdnUrl } from '../catalog/media-urls.ts';

/**
 * CloudFront signed URLs for recorded media (docs/live.md "Recorded media: signed URLs"). The
 * media CDN (infra/media-cdn.ts) requires a signature on every object IVS records (the bucket's
 * `ivs/` keys) except thumbnails, through a trusted key group; the API signs the URLs it hands
 * to viewers it entitles: an on-demand recording's playlist and a live channel's DVR.
 *
 * An HLS playlist names its renditions and segments by relative URI, so one signature must cover
 * the whole recording: a custom policy whose resource is that one recording's HLS prefix with a
 * wildcard (`https://<cdn>/ivs/v1/<account>/<channel>/<y>/<m>/<d>/<h>/<min>/<recording>/media/hls/*`),
 * taken from IVS's key layout, never a shorter directory: a URL under `{cdn_url}/ivs/` outside that
 * layout is not signed at all (CloudFront refuses it). The URLs signed are the platform's records
 * (a recording's episode, a channel's DVR); creators cannot name a media CDN URL (issue 33). The signed URL's query (`Policy`, `Signature`,
 * `Key-Pair-Id`, `Hash-Algorithm`) is that credential; the media CDN carries it to every child of
 * a playlist it serves (shared/playback/signed-playlists.ts), so players need do nothing with it
 * (plain hls.js plays it), as docs/live.md says.
 *
 * A signature is valid until the end of the hour after next (3 to 4 hours), so every URL of one
 * item signed within an hour is the same string: a container signs each item once an hour
 * (RSA-2048, about a millisecond) and a page of items costs nothing after the first.
 */

/** At least this long (seconds) to play a signed URL; at most an hour more. */
export const MEDIA_SIGNATURE_MIN_SECONDS = 3 * 3600;
const WINDOW_SECONDS = 3600;

/** Thumbnails stay public: a locked item shows its picture. */
const PUBLIC_MEDIA = /\/media\/(?:thumbnails|latest_thumbnail)\//;

/** Does CloudFront require a signature for `url`? Objects IVS records, under `{cdn_url}/ivs/`, but thumbnails. */
export const needsSignature = (url: string, cdn = cdnUrl()): boolean =>
  url.startsWith(`${cdn}/ivs/`) && !PUBLIC_MEDIA.test(new URL(url).pathname);

/** When a signature made at `now` expires (epoch seconds): the end of the hour after next. */
export const signatureExpiry = (now: Date): number =>
  (Math.floor(now.getTime() / 1000 / WINDOW_SECONDS) + 1) * WINDOW_SECONDS + MEDIA_SIGNATURE_MIN_SECONDS;

/** IVS's recording layout: `/ivs/v1/<account>/<channel>/<y>/<m>/<d>/<h>/<min>/<recording>/media/hls/`. */
const RECORDING_HLS =
  /^\/ivs\/v1\/\d{12}\/[A-Za-z0-9]+\/\d{4}\/\d{1,2}\/\d{1,2}\/\d{1,2}\/\d{1,2}\/[A-Za-z0-9_-]+\/media\/hls\//;

/**
 * The one recording's HLS prefix `url` is under (`cdn` included), or undefined outside `cdn` or
 * IVS's layout. IVS's keys start right after `cdn`, which may have a path of its own (`npm start`'s
 * media CDN stand-in is `http://127.0.0.1:3001/cdn`).
 */
export const recordingPrefix = (url: string, cdn = cdnUrl()): string | undefined => {
  if (!url.startsWith(`${cdn}/`)) return undefined;
  const key = new URL(url).pathname.slice(new URL(cdn).pathname.replace(/\/+$/, '').length);
  const prefix = RECORDING_HLS.exec(key)?.[0];
  return prefix && !key.includes('/../') ? `${cdn}${prefix}` : undefined;
};

/** The custom policy for `url`: every object of its recording's HLS prefix, until `expires`; undefined outside IVS's layout. */
export const mediaPolicy = (url: string, expires: number): string | undefined => {
  const prefix = recordingPrefix(url);
  if (!prefix) return undefined;
  return JSON.stringify({
    Statement: [{ Resource: `${prefix}*`, Condition: { DateLessThan: { 'AWS:EpochTime': expires } } }],
  });
};

export interface MediaKey {
  /** The CloudFront public key's id (`Key-Pair-Id`). */
  keyPairId: string;
  /** The private half (PEM, PKCS#8, RSA-2048). */
  privateKey: string;
}

/** CloudFront's URL-safe base64: `+` → `-`, `=` → `_`, `/` → `~`. */
const cloudFrontBase64 = (bytes: Buffer) =>
  bytes.toString('base64').replace(/\+/g, '-').replace(/=/g, '_').replace(/\//g, '~');

/**
 * `url` signed with a custom `policy` (CloudFront's signed URL format with SHA-256: the policy and
 * its RSA signature in CloudFront's base64, the key pair id and the hash algorithm). Written here
 * rather than taken from @aws-sdk/cloudfront-signer, which adds ~30 KB gzip to every bundle that
 * shows an episode; test/playback/media-signing.test.ts checks that it gives the library's URL,
 * byte for byte (RSA PKCS#1 v1.5 signatures are deterministic).
 */
export const signedUrl = (url: string, policy: string, keyPairId: string, key: KeyObject): string => {
  const signature = sign('sha256', Buffer.from(policy), key);
  const query = `Policy=${cloudFrontBase64(Buffer.from(policy))}&Key-Pair-Id=${keyPairId}&Signature=${cloudFrontBase64(signature)}&Hash-Algorithm=SHA256`;
  return `${url}${url.includes('?') ? '&' : '?'}${query}`;
};

/** Turns a media URL into the URL a viewer plays: signed when the CDN requires it, else as is. */
export type MediaSigner = (url: string) => string;

/** Cached signatures kept per container (one per item per hour; the oldest go first). */
const MAX_CACHED = 2000;

/** A signer with `key`, `clock` giving the time of each signature (the request's). */
export const mediaSigner = (key: MediaKey, clock: () => Date = () => new Date()): MediaSigner => {
  const privateKey = createPrivateKey(key.privateKey);
  const cache = new Map<string, string>();
  return (url) => {
    if (!needsSignature(url)) return url;
    const expires = signatureExpiry(clock());
    const cacheKey = `${expires} ${url}`;
    const cached = cache.get(cacheKey);
    if (cached) return cached;
    const policy = mediaPolicy(url, expires);
    if (!policy) return url;
    const signed = signedUrl(url, policy, key.keyPairId, privateKey);
    if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string);
    cache.set(cacheKey, signed);
    return signed;
  };
};
