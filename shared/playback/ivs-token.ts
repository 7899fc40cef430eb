import { createHash, createPrivateKey, type KeyObject, sign } from 'node:crypto';
import { setting } from '../config.ts';
import { keyFromSecret } from './key-secret.ts';

/**
 * Playback tokens for Amazon IVS private channels (docs/live.md "Playback tokens"): a JWT signed
 * ES384 with the private half of a playback key pair whose public half is imported into IVS
 * (infra/playback-keys.ts). IVS checks the signature against the account's imported keys, the
 * channel ARN, the expiry and the allowed origin; the viewer id and session version let a
 * session be revoked (StartViewerSessionRevocation).
 *
 * The private key lives in Secrets Manager: PLAYBACK_KEY_SECRET_ARN names the secret (an ARN is
 * not a secret), and a container reads its value once, on the first token it signs, and keeps
 * it for its lifetime. A key rotation changes the ARN the stack gives the functions, so every
 * container after the deployment reads the new key.
 */

/**
 * How long a token lets a player start: IVS allows at most 10 minutes when `aws:viewer-id` is
 * set. Heartbeats (every 30 s) refresh it, so 5 minutes leaves a player that resumes after a
 * network drop enough time, and a leaked URL little.
 */
export const PLAYBACK_TOKEN_TTL_SECONDS = 5 * 60;

export interface PlaybackGrant {
  /** The channel's ARN (`aws:channel-arn`). */
  channelArn: string;
  /** The account the session belongs to (`aws:viewer-id`, through `viewerIdOf`). */
  viewerId: string;
  /**
   * `aws:viewer-session-version`: the watch session's start in epoch seconds, so ending a session
   * revokes it (and any earlier one of the same viewer on the channel) and not a later one.
   */
  sessionVersion: number;
}

export interface PlaybackToken {
  token: string;
  expiresAt: string;
}

/** IVS's limit on `aws:viewer-id` (and StartViewerSessionRevocation's `viewerId`). */
const MAX_VIEWER_ID = 40;

/**
 * The viewer id IVS sees for an account: the account id itself (`acc_<uuid>`, 40 characters), or,
 * for a longer id (none is made today), a stable 40-character digest of it, so the token and a
 * revocation always name the same viewer and IVS never refuses either for length.
 */
export const viewerIdOf = (accountId: string): string =>
  accountId.length <= MAX_VIEWER_ID
    ? accountId
    : createHash('sha256').update(accountId).digest('base64url').slice(0, MAX_VIEWER_ID);

const segment = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** Signs the token's claims with `key` (P-384): `header.payload.signature`, the signature raw r||s. */
export const signEs384 = (claims: Record<string, unknown>, key: KeyObject): string => {
  const input = `${segment({ alg: 'ES384', typ: 'JWT' })}.${segment(claims)}`;
  const signature = sign('sha384', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' });
  return `${input}.${signature.toString('base64url')}`;
};

/** The claims IVS reads, valid until `now` + PLAYBACK_TOKEN_TTL_SECONDS. */
export const playbackClaims = (grant: PlaybackGrant, allowOrigin: string, now: Date) => ({
  'aws:channel-arn': grant.channelArn,
  'aws:access-control-allow-origin': allowOrigin,
  'aws:viewer-id': viewerIdOf(grant.viewerId),
  'aws:viewer-session-version': grant.sessionVersion,
  exp: Math.floor(now.getTime() / 1000) + PLAYBACK_TOKEN_TTL_SECONDS,
});

/** The container's signing key, read once (a failed read is retried by the next request). */
const signingKeyPem = /* @__PURE__ */ keyFromSecret('PLAYBACK_KEY_SECRET_ARN');
let signingKey: { pem: string; key: KeyObject } | undefined;
const currentKey = async (): Promise<KeyObject> => {
  const pem = await signingKeyPem();
  if (signingKey?.pem !== pem) signingKey = { pem, key: createPrivateKey(pem) };
  return signingKey.key;
};

/** A playback token for `grant` at `now`, for players on the configured web origin. */
export const signPlaybackToken = async (grant: PlaybackGrant, now: Date): Promise<PlaybackToken> => {
  const claims = playbackClaims(grant, setting('PLAYBACK_ALLOW_ORIGIN'), now);
  return {
    token: signEs384(claims, await currentKey()),
    expiresAt: new Date(claims.exp * 1000).toISOString(),
  };
};
