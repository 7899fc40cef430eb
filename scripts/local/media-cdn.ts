import { createPublicKey, verify } from 'node:crypto';
import { allowedOrigin } from './allowed-origin.ts';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { localMediaKey } from './local-key.ts';
import { cdnUrl } from '../../shared/catalog/media-urls.ts';
import { needsSignature } from '../../shared/playback/media-signing.ts';
import { mediaPlaylistRow } from '../../functions/workers.ts';
import { handler as recordedPlaylist } from '../../functions/live/media-playlist.ts';
import {
  functionContext,
  LOCAL_RECORDINGS_BUCKET,
  localDeployment,
  recordingsRoot,
  runAsFunction,
} from './aws.ts';

/**
 * The local stand-in for the media CDN (infra/media-cdn.ts, `{cdn_url}`): serves the local
 * recordings bucket under `/cdn/` on the IVS stand-in's port, and refuses what CloudFront's
 * trusted key group refuses: an object under `ivs/` (but thumbnails) needs a signed URL or signed
 * cookies (`Policy`, `Signature`, `Key-Pair-Id`, `Hash-Algorithm`; or the `CloudFront-` cookies
 * of the same names) whose custom policy is signed by the local media key, names a resource
 * matching the object's public URL (`{cdn_url}/<key>`, `*` a wildcard) and has not expired.
 * Refusals are 403, a missing object 404, as CloudFront over a private bucket answers. A signed
 * object's playlist (`ivs/…/*.m3u8`) comes from the playlist function, as the distribution's
 * `ivs/*.m3u8` behaviour has it (functions/live/media-playlist.ts, run as its Lambda: its
 * environment and IAM policy), with the request's query forwarded: its children carry the signature.
 */

const CONTENT_TYPES: Record<string, string> = {
  '.m3u8': 'application/vnd.apple.mpegurl',
  '.ts': 'video/MP2T',
  '.mp4': 'video/mp4',
  '.jpg': 'image/jpeg',
  '.json': 'application/json',
};

/** CloudFront's URL-safe base64 (`+`→`-`, `=`→`_`, `/`→`~`) back to bytes. */
const fromCloudFrontBase64 = (value: string) =>
  Buffer.from(value.replace(/-/g, '+').replace(/_/g, '=').replace(/~/g, '/'), 'base64');

const cookiesOf = (req: IncomingMessage): Map<string, string> =>
  new Map(
    (req.headers.cookie ?? '')
      .split(';')
      .map((part) => part.trim().split('='))
      .filter((pair): pair is [string, string] => pair.length >= 2)
      .map(([name, ...value]) => [name, value.join('=')]),
  );

/** A policy resource (`*` matches any characters) against the object's URL. */
const matches = (resource: string, url: string) =>
  new RegExp(
    `^${resource
      .split('*')
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  ).test(url);

interface Policy {
  Statement?: Array<{ Resource?: string; Condition?: { DateLessThan?: { 'AWS:EpochTime'?: number } } }>;
}

/** Why CloudFront would refuse `url` with these credentials, or undefined when it serves it. */
export const refusal = (
  url: string,
  credentials: { policy?: string; signature?: string; keyPairId?: string; algorithm?: string },
  nowSeconds: number,
): string | undefined => {
  const { policy, signature, keyPairId } = credentials;
  if (!policy || !signature || !keyPairId) return 'missing signature';
  const { kid, privateKey } = localMediaKey();
  if (keyPairId !== kid) return 'unknown key pair';
  const document = fromCloudFrontBase64(policy);
  const algorithm = credentials.algorithm === 'SHA256' ? 'sha256' : 'sha1';
  if (!verify(algorithm, document, createPublicKey(privateKey), fromCloudFrontBase64(signature)))
    return 'bad signature';
  const statement = (JSON.parse(document.toString('utf8')) as Policy).Statement?.[0];
  if (!statement?.Resource || !matches(statement.Resource, url)) return 'resource not covered by the policy';
  const expires = statement.Condition?.DateLessThan?.['AWS:EpochTime'];
  if (typeof expires !== 'number' || expires <= nowSeconds) return 'expired';
  return undefined;
};

/** Handles `/cdn/...` requests; false for any other path. */
export const serveMediaCdn = async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
  const requestUrl = new URL(req.url ?? '/', 'http://local');
  if (!requestUrl.pathname.startsWith('/cdn/')) return false;
  // The stack's CORS response headers policy: the allowed origins (infra/media-cdn.ts), the
  // request's echoed when it is one of them, as CloudFront does.
  const allowed = localDeployment().playbackAllowOrigin;
  const origin = req.headers.origin;
  const cors = {
    'access-control-allow-origin':
      (origin && allowedOrigin(allowed, origin)) ?? allowed.split(',')[0]!.trim(),
    'access-control-allow-headers': '*',
    vary: 'Origin',
  };
  if (req.method === 'OPTIONS') {
    res.writeHead(204, cors).end();
    return true;
  }
  const key = decodeURIComponent(requestUrl.pathname.slice('/cdn/'.length));
  const publicUrl = `${cdnUrl()}/${key}`;
  if (needsSignature(publicUrl)) {
    const q = requestUrl.searchParams;
    const cookies = cookiesOf(req);
    const credentials = q.has('Signature')
      ? {
          policy: q.get('Policy') ?? undefined,
          signature: q.get('Signature') ?? undefined,
          keyPairId: q.get('Key-Pair-Id') ?? undefined,
          algorithm: q.get('Hash-Algorithm') ?? undefined,
        }
      : {
          policy: cookies.get('CloudFront-Policy'),
          signature: cookies.get('CloudFront-Signature'),
          keyPairId: cookies.get('CloudFront-Key-Pair-Id'),
          algorithm: cookies.get('CloudFront-Hash-Algorithm'),
        };
    const reason = refusal(publicUrl, credentials, Math.floor(Date.now() / 1000));
    if (reason) {
      res.writeHead(403, { 'content-type': 'application/json', ...cors });
      res.end(JSON.stringify({ message: `Access denied: ${reason}` }));
      return true;
    }
  }
  if (needsSignature(publicUrl) && extname(key) === '.m3u8') {
    const response = await runAsFunction(functionContext(mediaPlaylistRow), () =>
      recordedPlaylist({ rawPath: `/${key}`, rawQueryString: requestUrl.search.slice(1) }),
    );
    res.writeHead(response.statusCode, { ...response.headers, ...cors }).end(response.body);
    return true;
  }
  const root = join(recordingsRoot(), LOCAL_RECORDINGS_BUCKET);
  const file = normalize(join(root, key));
  const found = file.startsWith(`${root}/`) ? await stat(file).catch(() => undefined) : undefined;
  if (!found?.isFile()) {
    res.writeHead(404, { 'content-type': 'application/json', ...cors });
    res.end(JSON.stringify({ message: 'Not found' }));
    return true;
  }
  res.writeHead(200, {
    'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
    'content-length': found.size,
    'cache-control': extname(file) === '.m3u8' ? 'max-age=1' : 'max-age=31536000',
    ...cors,
  });
  createReadStream(file).pipe(res);
  return true;
};
