import { kms } from '../aws/kms.ts';
import { perContainer } from '../aws/local-hook.ts';
import { setting } from '../config.ts';
import { formatSecret } from './signing.ts';

/**
 * Where subscription secrets live: nowhere. A secret is DERIVED, `whsec_` + base64 of
 * KMS GenerateMac(HMAC_SHA_256 key, `webhook-secret:v1:<subscription id>:<generation>`), so the
 * table, its backups and its stream hold no secret at all (nor any ciphertext of one), and none
 * is ever in an environment variable, a template or a log. The HMAC key never leaves KMS
 * (WEBHOOK_KEY_ID names it; functions that may derive a secret are granted kms:GenerateMac on it
 * alone). Rotation is a new generation; deleting the subscription forgets it. Locally the local
 * platform's KMS stand-in answers GenerateMac with a key in `.local/keys/` (scripts/local).
 * Why not an encrypted column or Secrets Manager: docs/webhooks.md, "Secrets".
 */

/** The message a generation's secret is the MAC of (versioned, so the scheme can change). */
export const secretMessage = (subscriptionId: string, generation: number): string =>
  `webhook-secret:v1:${subscriptionId}:${generation}`;

/** Derived secrets this container has already asked KMS for (a delivery needs one per attempt). */
const cache = /* @__PURE__ */ perContainer(() => new Map<string, string>());
const CACHE_LIMIT = 1000;

/** The `whsec_` secret of `subscriptionId`'s `generation`. */
export const secretOf = async (subscriptionId: string, generation: number): Promise<string> => {
  const name = `${subscriptionId}:${generation}`;
  const cached = cache().get(name);
  if (cached) return cached;
  const { sdk, client } = await kms();
  const { Mac } = await client.send(
    new sdk.GenerateMacCommand({
      KeyId: setting('WEBHOOK_KEY_ID'),
      MacAlgorithm: 'HMAC_SHA_256',
      Message: Buffer.from(secretMessage(subscriptionId, generation)),
    }),
  );
  if (!Mac) throw new Error('KMS GenerateMac returned no MAC');
  const secret = formatSecret(Mac);
  const entries = cache();
  if (entries.size >= CACHE_LIMIT) entries.delete(entries.keys().next().value!);
  entries.set(name, secret);
  return secret;
};

/** How long the previous secret keeps signing after a rotation. */
export const ROTATION_OVERLAP_MS = 24 * 3600 * 1000;

/** The secrets a delivery is signed with at `now`: the current one, and the previous during a rotation. */
export const signingSecrets = async (
  subscription: { id: string; secret_generation: number; previous_secret_expires_at?: string },
  now: Date,
): Promise<string[]> => {
  const current = await secretOf(subscription.id, subscription.secret_generation);
  const rotating =
    subscription.secret_generation > 1 &&
    subscription.previous_secret_expires_at !== undefined &&
    Date.parse(subscription.previous_secret_expires_at) > now.getTime();
  return rotating
    ? [current, await secretOf(subscription.id, subscription.secret_generation - 1)]
    : [current];
};
