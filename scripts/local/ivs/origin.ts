import { createReadStream } from 'node:fs';
import { allowedOrigin } from '../allowed-origin.ts';
import { join } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { verify } from 'node:crypto';
import type { ChannelRecord, IvsState } from './api.ts';
import {
  liveMediaPlaylist,
  multivariantPlaylist,
  RENDITION,
  segmentFileAt,
  type TestPattern,
} from './test-pattern.ts';

/**
 * The local stand-in for IVS playback: serves a live channel's multivariant playlist at the
 * channel's playbackUrl, its media playlist and segments (the looping test pattern), and for a
 * private channel (`authorized: true`) checks the playback token the way IVS documents: a JWT
 * signed ES384 and verified against the imported playback public keys, `aws:channel-arn` equal
 * to the channel's ARN, `exp` in the future, `aws:access-control-allow-origin` matched against the
 * request's Origin, and viewer sessions revoked by StartViewerSessionRevocation refused.
 * Refusals are 403 with a small JSON body; an offline or unknown channel is 404, like IVS.
 */

/** `/api/video/v1/<region>.<account>.channel.<id>` + `.m3u8` | `/<rendition>/playlist.m3u8` | `/<rendition>/s<seq>.ts` */
const PLAYBACK_PATH =
  /^\/api\/video\/v1\/([a-z0-9-]+)\.(\d{12})\.channel\.([A-Za-z0-9-]+)(?:\.m3u8|\/([A-Za-z0-9]+)\/(?:playlist\.m3u8|s(\d{1,12})\.ts))$/;

/** The playback path (after `/api/video/v1/`) of a channel: `us-east-1.000000000000.channel.<id>.m3u8`. */
export const playbackPath = (channelArn: string): string => {
  const [, , , region, account, resource] = channelArn.split(':');
  return `${region}.${account}.channel.${resource?.split('/')[1]}.m3u8`;
};

interface PlaybackClaims {
  'aws:channel-arn'?: unknown;
  'aws:access-control-allow-origin'?: unknown;
  'aws:strict-origin-enforcement'?: unknown;
  'aws:viewer-id'?: unknown;
  'aws:viewer-session-version'?: unknown;
  exp?: unknown;
}

type Access = { ok: true; allowOrigin: string } | { ok: false; reason: string };

const decodeSegment = (segment: string): unknown =>
  JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));

/**
 * Checks a playback token for `channel` at `nowSeconds`. The token must verify against any of
 * the imported key pairs (IVS does not require `kid`).
 */
const checkPlaybackToken = (
  state: IvsState,
  channel: ChannelRecord,
  token: string | null,
  requestOrigin: string | undefined,
  nowSeconds: number,
): Access => {
  if (!token) return { ok: false, reason: 'missing playback token' };
  const parts = token.split('.');
  if (parts.length !== 3) return { ok: false, reason: 'malformed token' };
  const [header, payload, signature] = parts as [string, string, string];
  let claims: PlaybackClaims;
  try {
    if ((decodeSegment(header) as { alg?: unknown }).alg !== 'ES384')
      return { ok: false, reason: 'token alg must be ES384' };
    claims = decodeSegment(payload) as PlaybackClaims;
  } catch {
    return { ok: false, reason: 'malformed token' };
  }
  if (typeof claims !== 'object' || claims === null) return { ok: false, reason: 'malformed token' };
  const signed = Buffer.from(`${header}.${payload}`);
  const sig = Buffer.from(signature, 'base64url');
  const verified = [...state.playbackKeyPairs.values()].some((pair) =>
    verify('sha384', signed, { key: pair.publicKey, dsaEncoding: 'ieee-p1363' }, sig),
  );
  if (!verified) return { ok: false, reason: 'token signature does not match an imported playback key' };
  if (claims['aws:channel-arn'] !== channel.arn) return { ok: false, reason: 'token is for another channel' };
  if (typeof claims.exp !== 'number' || claims.exp <= nowSeconds)
    return { ok: false, reason: 'token expired' };
  const allowOrigin = claims['aws:access-control-allow-origin'];
  let echo = '*';
  if (typeof allowOrigin === 'string' && allowOrigin !== '*') {
    // Browsers send Origin on cross-origin requests; a client without one (curl, a native player)
    // is only refused under aws:strict-origin-enforcement, as IVS does. The claim is a list of
    // origins, wildcard hostnames allowed (scripts/local/allowed-origin.ts).
    const strict = claims['aws:strict-origin-enforcement'] === true;
    const allowed = requestOrigin === undefined ? undefined : allowedOrigin(allowOrigin, requestOrigin);
    if (requestOrigin === undefined ? strict : allowed === undefined) {
      return { ok: false, reason: 'origin not allowed by token' };
    }
    echo = allowed ?? allowOrigin.split(',')[0]!.trim();
  }
  const viewerId = claims['aws:viewer-id'];
  if (typeof viewerId === 'string') {
    const version = claims['aws:viewer-session-version'];
    if (state.isRevoked(channel.arn, viewerId, typeof version === 'number' ? version : 0)) {
      return { ok: false, reason: 'viewer session revoked' };
    }
  }
  return { ok: true, allowOrigin: echo };
};

const corsHeaders = (allowOrigin: string) => ({
  'access-control-allow-origin': allowOrigin,
  'access-control-allow-methods': 'GET, OPTIONS',
  'access-control-allow-headers': '*',
  vary: 'Origin',
});

const refuse = (res: ServerResponse, status: 403 | 404, reason: string): void => {
  res.writeHead(status, { 'content-type': 'application/json', ...corsHeaders('*') });
  res.end(JSON.stringify({ error: status === 403 ? 'Forbidden' : 'NotFound', reason }));
};

export interface OriginOptions {
  now?: () => number;
}

/**
 * The origin's request handler: answers GET/OPTIONS under `/api/video/v1/` and returns true, or
 * returns false for any other request.
 */
export const createOriginHandler = (state: IvsState, pattern: TestPattern, options: OriginOptions = {}) => {
  const now = options.now ?? Date.now;
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    const url = new URL(req.url ?? '/', 'http://origin');
    const match = PLAYBACK_PATH.exec(url.pathname);
    if (!match || (req.method !== 'GET' && req.method !== 'OPTIONS')) return false;
    if (req.method === 'OPTIONS') {
      res.writeHead(204, corsHeaders(req.headers.origin ?? '*'));
      res.end();
      return true;
    }
    const [, region, account, id, rendition, sequence] = match;
    const channel = state.channels.get(`arn:aws:ivs:${region}:${account}:channel/${id}`);
    const stream = channel && state.streams.get(channel.arn);
    if (!channel || !stream) {
      refuse(res, 404, 'channel is not broadcasting');
      return true;
    }
    if (rendition !== undefined && rendition !== RENDITION.name) {
      refuse(res, 404, 'no such rendition');
      return true;
    }
    const token = url.searchParams.get('token');
    let allowOrigin = '*';
    if (channel.authorized) {
      const access = checkPlaybackToken(state, channel, token, req.headers.origin, Math.floor(now() / 1000));
      if (!access.ok) {
        refuse(res, 403, access.reason);
        return true;
      }
      allowOrigin = access.allowOrigin;
    }
    // Relative URIs carry the token on, so every playlist and segment request is checked (a
    // revocation or expiry takes effect mid-playback).
    const query = token ? `?token=${encodeURIComponent(token)}` : '';
    const playlistHeaders = {
      'content-type': 'application/vnd.apple.mpegurl',
      'cache-control': 'no-cache',
      ...corsHeaders(allowOrigin),
    };
    if (rendition === undefined) {
      res.writeHead(200, playlistHeaders);
      res.end(
        multivariantPlaylist(`${region}.${account}.channel.${id}/${RENDITION.name}/playlist.m3u8${query}`),
      );
    } else if (sequence === undefined) {
      res.writeHead(200, playlistHeaders);
      res.end(
        liveMediaPlaylist(pattern, {
          startedAt: stream.startTime.getTime(),
          now: now(),
          segmentUri: (seq) => `s${seq}.ts${query}`,
          metadata: state.metadata.get(channel.arn),
        }),
      );
    } else {
      res.writeHead(200, {
        'content-type': 'video/MP2T',
        'cache-control': 'max-age=60',
        ...corsHeaders(allowOrigin),
      });
      createReadStream(join(pattern.dir, segmentFileAt(pattern, Number(sequence))))
        .on('error', () => res.destroy()) // e.g. the pattern folder was deleted while serving
        .pipe(res);
    }
    return true;
  };
};
