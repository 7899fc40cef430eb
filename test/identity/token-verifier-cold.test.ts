import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/**
 * The cold path of token verification: a fresh container (fresh modules) loads the signing key's
 * public half from KMS once (the local platform's KMS stand-in here, scripts/local/aws.ts) and
 * never fetches a JWKS over HTTP; a throttled KMS is a retryable failure, not a 401.
 */
type KmsCall = { command: string; fail?: boolean };

const fresh = async () => {
  vi.resetModules();
  const verifier = await import('../../shared/identity/token-verifier.ts');
  const tokens = await import('../../shared/identity/access-token.ts');
  return { verifier, tokens };
};

describe('token verification on a cold container', () => {
  const calls: KmsCall[] = [];
  let throttleNext = 0;
  const realFetch = globalThis.fetch;

  beforeEach(() => {
    calls.length = 0;
    throttleNext = 0;
    // Any HTTP fetch (a JWKS download) fails the test.
    globalThis.fetch = (() => {
      throw new Error('verification must not fetch over HTTP');
    }) as typeof fetch;
  });
  afterEach(() => {
    globalThis.fetch = realFetch;
  });

  /** Observes KMS calls on every client made from now on (after the local guard and stand-in). */
  const observeKms = async () => {
    const { KMSClient } = await import('@aws-sdk/client-kms');
    const original = KMSClient.prototype.send;
    vi.spyOn(KMSClient.prototype, 'send').mockImplementation(function (
      this: InstanceType<typeof KMSClient>,
      command: any,
      ...rest: any[]
    ) {
      const name = command.constructor.name.replace(/Command$/, '');
      if (throttleNext > 0) {
        throttleNext--;
        calls.push({ command: name, fail: true });
        return Promise.reject(
          Object.assign(new Error('Rate exceeded'), {
            name: 'ThrottlingException',
            $retryable: { throttling: true },
          }),
        );
      }
      calls.push({ command: name });
      return (original as any).call(this, command, ...rest);
    } as never);
  };

  it('loads the public key from KMS once, then verifies every token without any call', async () => {
    const { verifier, tokens } = await fresh();
    await observeKms();
    const { token } = await tokens.issueAccessToken('acc_cold', new Date());
    const signs = calls.length;
    for (let i = 0; i < 5; i++) {
      expect(await verifier.verifyAccessToken(token)).toMatchObject({ accountId: 'acc_cold' });
    }
    expect(calls.slice(signs).map((c) => c.command)).toEqual(['GetPublicKey']);
    vi.restoreAllMocks();
  });

  it('answers a throttled KMS with a retryable error (not 401), and recovers on the next request', async () => {
    const { verifier, tokens } = await fresh();
    await observeKms();
    const { token } = await tokens.issueAccessToken('acc_cold', new Date());
    throttleNext = 1;
    const failure = await verifier.verifyAccessToken(token).catch((error: unknown) => error);
    expect(failure).toMatchObject({ name: 'ThrottlingException' });
    const { toHttpError } = await import('../../shared/http/handler.ts');
    expect(toHttpError(failure)?.status).toBe(503);
    expect(await verifier.verifyAccessToken(token)).toMatchObject({ accountId: 'acc_cold' });
    vi.restoreAllMocks();
  });

  it('rejects a token signed by another key at once, with no fetch for its kid', async () => {
    const { verifier, tokens } = await fresh();
    const { token } = await tokens.issueAccessToken('acc_cold', new Date());
    const [header, payload, signature] = token.split('.');
    const foreign = JSON.parse(Buffer.from(header!, 'base64url').toString());
    const forged = `${Buffer.from(JSON.stringify({ ...foreign, kid: 'someone-else' })).toString('base64url')}.${payload}.${signature}`;
    await expect(verifier.verifyAccessToken(forged)).rejects.toMatchObject({ status: 401 });
  });
});
