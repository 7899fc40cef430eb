import { createPublicKey } from 'node:crypto';

/**
 * The JWKS published at `/.well-known/jwks.json`: the public half of the access-token signing
 * key, from KMS GetPublicKey on AWS (once per container), or from the local key. Only the JWKS
 * route loads this module, so only it carries the KMS client.
 */
const jwkOf = (der: Uint8Array, kid: string) => ({
  ...createPublicKey({ key: Buffer.from(der), format: 'der', type: 'spki' }).export({ format: 'jwk' }),
  kid,
  alg: 'ES256',
  use: 'sig',
});

let cached: Promise<{ keys: Array<Record<string, unknown>> }> | undefined;

export const publicJwks = () => {
  cached ??= (async () => {
    const keyId = process.env.SIGNING_KEY_ID;
    if (keyId) {
      const { KMSClient, GetPublicKeyCommand } = await import('@aws-sdk/client-kms');
      const result = await new KMSClient({}).send(new GetPublicKeyCommand({ KeyId: keyId }));
      return { keys: [jwkOf(result.PublicKey!, keyId)] };
    }
    const { localJwks } = await import('./local-key.ts');
    return localJwks();
  })();
  return cached;
};
