import { createHmac } from 'node:crypto';

/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com, "Signature scheme"): the
 * HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>` keyed with the secret's bytes (the
 * base64 after `whsec_`), sent as `v1,<base64>`; several space-separated during a secret
 * rotation, so a receiver holding either secret verifies. Pure: the secrets and the time are
 * arguments.
 */

export const SECRET_PREFIX = 'whsec_';

/** `whsec_<base64>` of `bytes`: how a subscription's secret is shown to its owner. */
export const formatSecret = (bytes: Uint8Array): string =>
  `${SECRET_PREFIX}${Buffer.from(bytes).toString('base64')}`;

/** The key bytes of a `whsec_` secret. */
export const secretBytes = (secret: string): Buffer => {
  if (!secret.startsWith(SECRET_PREFIX)) throw new Error('not a whsec_ secret');
  return Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
};

/** `v1,<base64 HMAC-SHA256 of id.timestamp.body>` with one secret. */
export const signature = (secret: string, id: string, timestampSeconds: number, body: string): string =>
  `v1,${createHmac('sha256', secretBytes(secret)).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`;

/** The three headers of a signed request, one signature per secret (current first). */
export const signedHeaders = (
  secrets: readonly string[],
  id: string,
  timestampSeconds: number,
  body: string,
): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> => ({
  'webhook-id': id,
  'webhook-timestamp': String(timestampSeconds),
  'webhook-signature': secrets.map((secret) => signature(secret, id, timestampSeconds, body)).join(' '),
});
