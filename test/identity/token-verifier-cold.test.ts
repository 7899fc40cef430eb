import { generateKeyPairSync } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jwkOf } from '../../shared/identity/signing-jwk.ts';

/**
 * The cold path of token verification: a fresh container (fresh modules) caches the signing
 * key's public JWK from its environment (`SIGNING_PUBLIC_JWK`, computed at deploy) and verifies
 * every token with no KMS call and no HTTP fetch; a malformed JWK is a deployment error named at
 * the first token (500), never a 401, and not kept: once fixed, the next token verifies.
 */
const fresh = async () => {
  vi.resetModules();
  const verifier = await import('../../shared/identity/token-verifier.ts');
  const tokens = await import('../../shared/identity/access-token.ts');
  return { verifier, tokens };
};

describe('token verification on a cold container', () => {
  const kmsCalls: string[] = [];
  const realFetch = globalThis.fetch;

  beforeEach(async () => {
    kmsCalls.length = 0;
    // Any HTTP fetch (a JWKS download) fails the test.
    globalThis.fetch = (() => {
      throw new Error('verification must not fetch over HTTP');
    }) as typeof fetch;
    // Observes KMS calls on every client (signing still calls KMS Sign through the local stand-in).
    const { KMSClient } = await import('@aws-sdk/client-kms');
    const original = KMSClient.prototype.send;
    vi.spyOn(KMSClient.prototype, 'send').mockImplementation(function (
      this: InstanceType<typeof KMSClient>,
      command: any,
      ...rest: any[]
    ) {
      kmsCalls.push(command.constructor.name.replace(/Command$/, ''));
      return (original as any).call(this, command, ...rest);
    } as never);
  });
  afterEach(() => {
    globalThis.fetch = realFetch;
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
  });

  it('verifies every token from the JWK in its environment, with no KMS call and no fetch', async () => {
    const { verifier, tokens } = await fresh();
    const { token } = await tokens.issueAccessToken('acc_cold', new Date());
    expect(kmsCalls).toEqual(['Sign']);
    for (let i = 0; i < 5; i++) {
      expect(await verifier.verifyAccessToken(token)).toMatchObject({ accountId: 'acc_cold' });
    }
    expect(kmsCalls).toEqual(['Sign']);
  });

  it('trusts only the JWK of its environment: the service key is refused when another key is deployed', async () => {
    const { verifier, tokens } = await fresh();
    const { token } = await tokens.issueAccessToken('acc_cold', new Date());
    const other = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey;
    vi.stubEnv(
      'SIGNING_PUBLIC_JWK',
      JSON.stringify(
        jwkOf(other.export({ type: 'spki', format: 'der' }), String(process.env.SIGNING_KEY_ID)),
      ),
    );
    await expect(verifier.verifyAccessToken(token)).rejects.toMatchObject({ kind: 'unauthorized' });
  });

  it.each([
    ['missing', '', /Setting SIGNING_PUBLIC_JWK is missing/],
    ['not JSON', '{"kty":', /SIGNING_PUBLIC_JWK is not JSON/],
    [
      'another kind of key',
      '{"kty":"RSA","n":"AQAB","e":"AQAB"}',
      /is not the signing key's public JWK \(ES256, P-256\): kty must be "EC"/,
    ],
  ])(
    'names a %s SIGNING_PUBLIC_JWK at the first token (500, not 401), and recovers once fixed',
    async (_, value, message) => {
      const { verifier, tokens } = await fresh();
      const { token } = await tokens.issueAccessToken('acc_cold', new Date());
      vi.stubEnv('SIGNING_PUBLIC_JWK', value);
      const failure = await verifier.verifyAccessToken(token).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(Error);
      expect((failure as Error).message).toMatch(message);
      const { toHttpError } = await import('../../shared/http/handler.ts');
      expect(toHttpError(failure)).toBeUndefined(); // the 500 envelope, never a 401 or a retryable 503
      vi.unstubAllEnvs();
      expect(await verifier.verifyAccessToken(token)).toMatchObject({ accountId: 'acc_cold' });
    },
  );

  it('rejects a token signed by another key at once, with no fetch for its kid', async () => {
    const { verifier, tokens } = await fresh();
    const { token } = await tokens.issueAccessToken('acc_cold', new Date());
    const [header, payload, signature] = token.split('.');
    const foreign = JSON.parse(Buffer.from(header!, 'base64url').toString());
    const forged = `${Buffer.from(JSON.stringify({ ...foreign, kid: 'someone-else' })).toString('base64url')}.${payload}.${signature}`;
    await expect(verifier.verifyAccessToken(forged)).rejects.toMatchObject({ kind: 'unauthorized' });
  });
});
