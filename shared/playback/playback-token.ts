import { createHmac, timingSafeEqual } from 'node:crypto';
import { setting } from '../config.ts';

/**
 * Playback tokens: short-lived, HMAC-SHA256-signed, bound to the viewer, the watch session, the
 * stream and the quality. Format (docs/live.md): `<base64url(JSON claims)>.<base64url(HMAC)>`,
 * claims `{v:1, acc, sid, str, q, exp}` (exp in epoch seconds), carried in the URL path
 * (shared/live/stream-views.ts). The CDN edge does not run this module: its CloudFront Function,
 * infra/edge/verify-playback-token.js, applies the same rules to the path it serves, and
 * test/infra/playback-edge.test.ts checks that it accepts `signPlaybackToken` tokens exactly when
 * `verifyPlaybackToken` does. The secret comes from PLAYBACK_TOKEN_SECRET (on AWS a generated
 * Secrets Manager secret, resolved into the function's environment at deploy time), locally from
 * a generated key in `.local/keys/` that the local platform puts in the same variable.
 */
export const PLAYBACK_TOKEN_TTL_SECONDS = 5 * 60;

export interface PlaybackClaims {
  acc: string;
  sid: string;
  str: string;
  q: string;
  exp: number;
}

let secret: Buffer | undefined;
const getSecret = (): Buffer => {
  if (!secret) {
    secret = Buffer.from(setting('PLAYBACK_TOKEN_SECRET'), 'utf8');
  }
  return secret;
};

const mac = (payload: string, key: Buffer) => createHmac('sha256', key).update(payload).digest();

/** Signs a playback token valid for PLAYBACK_TOKEN_TTL_SECONDS from `now`. */
export const signPlaybackToken = (claims: Omit<PlaybackClaims, 'exp'>, now: Date, key = getSecret()) => {
  const exp = Math.floor(now.getTime() / 1000) + PLAYBACK_TOKEN_TTL_SECONDS;
  const payload = Buffer.from(JSON.stringify({ v: 1, ...claims, exp })).toString('base64url');
  return {
    token: `${payload}.${mac(payload, key).toString('base64url')}`,
    expiresAt: new Date(exp * 1000).toISOString(),
  };
};

export type PlaybackVerdict =
  | { ok: true; claims: PlaybackClaims }
  | { ok: false; reason: 'malformed' | 'signature' | 'expired' | 'rebound' };

/**
 * Verifies a token for a request of `stream` at `quality` at `now`: rejects malformed, tampered
 * (bad MAC), expired, and rebound tokens (issued for another stream or quality).
 */
export const verifyPlaybackToken = (
  token: string,
  expected: { stream: string; quality: string },
  now: Date,
  key = getSecret(),
): PlaybackVerdict => {
  const [payload, signature] = token.split('.');
  if (!payload || !signature) return { ok: false, reason: 'malformed' };
  const given = Buffer.from(signature, 'base64url');
  const wanted = mac(payload, key);
  if (given.length !== wanted.length || !timingSafeEqual(given, wanted))
    return { ok: false, reason: 'signature' };
  let claims: PlaybackClaims;
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  if (claims.exp * 1000 <= now.getTime()) return { ok: false, reason: 'expired' };
  if (claims.str !== expected.stream || (claims.q !== expected.quality && claims.q !== 'auto')) {
    return { ok: false, reason: 'rebound' };
  }
  return { ok: true, claims };
};
