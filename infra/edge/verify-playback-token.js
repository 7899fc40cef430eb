// CloudFront Function (cloudfront-js-2.0, viewer-request) in front of `{cdn_url}`: a live playback
// request passes only with a valid playback token (format: shared/playback/playback-token.ts,
// docs/live.md). infra/playback-edge.ts replaces the key placeholder with a Secrets Manager
// dynamic reference; test/infra/playback-edge.test.ts runs this file as it is.
// biome-ignore lint/style/useNodejsImportProtocol: CloudFront Functions name the module 'crypto'.
const crypto = require('crypto');

const KEY = '__PLAYBACK_TOKEN_SECRET__';
// As shared/live/stream-views.ts builds it, the token is a path segment so relative playlist URIs
// keep it: /live/<creator>/<stream>/t/<token>/[dvr/] then <rendition>.m3u8 or <rendition>/<file>
// (`master` is `auto`). Groups: origin prefix, stream, token, origin rest, rendition.
const STREAM_PATH =
  /^(\/live\/[\w-]+\/([\w-]+)\/)t\/([\w-]+\.[\w-]+)\/((?:dvr\/)?([\w-]+)(?:\.m3u8|\/[\w-][\w.-]*))$/;
// Channel stills (/live/<creator>/thumb.jpg, offline.jpg) are public.
const STILL_PATH = /^\/live\/[^/]+\/[^/]+\.jpg$/;
const DOT_SEGMENT = /\/\.\.?(\/|$)/;
const FORBIDDEN = { statusCode: 403, statusDescription: 'Forbidden' };

// No timingSafeEqual in CloudFront Functions: compare every character, whatever differs.
function sameText(a, b) {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

function claimsOf(token) {
  const parts = token.split('.');
  const mac = crypto.createHmac('sha256', KEY).update(parts[0]).digest('base64url');
  if (!sameText(mac, parts[1])) return null;
  const base64 = parts[0].replace(/-/g, '+').replace(/_/g, '/');
  try {
    return JSON.parse(Buffer.from(base64, 'base64').toString('utf8'));
  } catch (_malformed) {
    return null;
  }
}

// biome-ignore lint/correctness/noUnusedVariables: CloudFront calls `handler`.
function handler(event) {
  const request = event.request;
  // Judge the path the origin will serve: decoded, no repeated slashes, no dot segments.
  let uri;
  try {
    uri = decodeURIComponent(request.uri).replace(/\/{2,}/g, '/');
  } catch (_undecodable) {
    return FORBIDDEN;
  }
  if (DOT_SEGMENT.test(uri)) return FORBIDDEN;
  if (!/^\/live\//i.test(uri) || STILL_PATH.test(uri)) return request;
  const path = STREAM_PATH.exec(uri);
  if (!path) return FORBIDDEN;
  const claims = claimsOf(path[3]);
  if (!claims || typeof claims.exp !== 'number' || claims.exp * 1000 <= Date.now()) return FORBIDDEN;
  const quality = path[5] === 'master' ? 'auto' : path[5];
  if (claims.str !== path[2] || (claims.q !== quality && claims.q !== 'auto')) return FORBIDDEN;
  // The origin serves the checked path without the token, which also keeps it out of the cache key.
  request.uri = path[1] + path[4];
  return request;
}
