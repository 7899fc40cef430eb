import { createPublicKey } from 'node:crypto';
import { awsClient, oncePerContainer } from '../aws/local-hook.ts';
import { setting } from '../config.ts';
import type { SigningJwk, SigningJwks } from './schemas.ts';

/**
 * The public half of the access-token signing key as a JWKS, read from KMS (GetPublicKey on
 * SIGNING_KEY_ID) once per container. Served at `/.well-known/jwks.json` for clients, and loaded
 * by every verifying function at its first token: verification never calls our own API or the
 * internet, so a cold or throttled JWKS route cannot turn valid tokens into 401s.
 */
const jwkOf = (der: Uint8Array, kid: string): SigningJwk => {
  const { kty, crv, x, y } = createPublicKey({ key: Buffer.from(der), format: 'der', type: 'spki' }).export({
    format: 'jwk',
  });
  // The signing key is ECC_NIST_P256 (infra): anything else is a misconfigured key, not a JWK to publish.
  if (kty !== 'EC' || crv !== 'P-256' || !x || !y)
    throw new Error(`Signing key ${kid} is not an EC P-256 key`);
  return { kty, crv, x, y, kid, alg: 'ES256', use: 'sig' };
};

/** The JWKS of this deployment's signing key; a failed read is not cached (the next call retries). */
export const publicJwks: () => Promise<SigningJwks> = oncePerContainer(async () => {
  const keyId = setting('SIGNING_KEY_ID');
  const { KMSClient, GetPublicKeyCommand } = await import('@aws-sdk/client-kms');
  const result = await awsClient(new KMSClient({}), 'kms').send(new GetPublicKeyCommand({ KeyId: keyId }));
  return { keys: [jwkOf(result.PublicKey!, keyId)] };
});
