import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { routes } from '../../functions/routes.ts';
import { bundleDefineOf, LAMBDA_BUNDLE_DEFINE, nodejsBundling } from '../../infra/bundling.ts';
import { bundleLambdas } from '../../scripts/lambda-bundle.ts';

/**
 * Routes that verify no token are bundled without the token verifier (issue 19, cold starts):
 * `process.env.LAMBDA_BUNDLE_AUTH` is `"none"` in their bundles, which drops the verifier's
 * `import()` and aws-jwt-verify; every other bundle keeps them. No verifying bundle carries the
 * KMS client for the verifier: the public key is in the function's environment, computed at
 * deploy (SIGNING_PUBLIC_JWK, shared/identity/jwks.ts).
 */
const out = mkdtempSync(join(tmpdir(), 'bundle-auth-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

const entry = (handler: string) => resolve(import.meta.dirname, '../../functions', `${handler}.ts`);
const rowOf = (auth: string) => routes.find((row) => row.auth === auth)!;

describe('bundles by auth mode', () => {
  it('defines the auth mode only for rows that verify no token', () => {
    expect(bundleDefineOf({ auth: 'none' })).toEqual({
      ...LAMBDA_BUNDLE_DEFINE,
      'process.env.LAMBDA_BUNDLE_AUTH': '"none"',
    });
    expect(bundleDefineOf({ auth: 'optional' })).toEqual(LAMBDA_BUNDLE_DEFINE);
    expect(bundleDefineOf({ auth: 'required' })).toEqual(LAMBDA_BUNDLE_DEFINE);
    expect(bundleDefineOf(undefined)).toEqual(LAMBDA_BUNDLE_DEFINE);
    // A route's own define also says whether it has request budgets (test/infra/bundle-rate-limit.test.ts).
    expect(nodejsBundling(rowOf('none')).define).toMatchObject(bundleDefineOf({ auth: 'none' }));
    expect(nodejsBundling(rowOf('required')).define).not.toHaveProperty(['process.env.LAMBDA_BUNDLE_AUTH']);
    expect(nodejsBundling().define).toEqual(LAMBDA_BUNDLE_DEFINE);
  });

  it('leaves the verifier out of auth: none bundles only', async () => {
    const picked = ['none', 'optional', 'required'].map(rowOf);
    const files = await bundleLambdas(new Map(picked.map((row) => [row.auth, entry(row.handler)])), out);
    const code = (auth: string) => readFileSync(files.get(auth)!, 'utf8');
    expect(code('none')).not.toContain('jwksUri');
    expect(code('optional')).toContain('jwksUri');
    expect(code('required')).toContain('jwksUri');
  }, 60_000);

  it('bundles no KMS client into verifying functions or the JWKS route; token signers keep theirs', async () => {
    // KMS's JSON protocol names every operation `TrentService.<Operation>`: in the client only.
    const KMS_MARKERS = ['TrentService', 'GetPublicKey'];
    const usesKms = (row: (typeof routes)[number]) =>
      row.needs?.some((need) => need === 'token-signer' || need.startsWith('webhook-')) ?? false;
    const verifying = routes.find((row) => row.auth === 'required' && !usesKms(row))!;
    const jwks = routes.find((row) => row.handler === 'platform/get-jwks')!;
    const signer = routes.find((row) => row.needs?.includes('token-signer'))!;
    const files = await bundleLambdas(
      new Map([
        ['verifying', entry(verifying.handler)],
        ['jwks', entry(jwks.handler)],
        ['signer', entry(signer.handler)],
      ]),
      out,
    );
    const code = (name: string) => readFileSync(files.get(name)!, 'utf8');
    expect(code('verifying')).toContain('jwksUri');
    expect(code('verifying')).toContain('SIGNING_PUBLIC_JWK');
    expect(code('jwks')).toContain('SIGNING_PUBLIC_JWK');
    for (const marker of KMS_MARKERS) {
      expect(code('verifying'), `${verifying.handler}: ${marker}`).not.toContain(marker);
      expect(code('jwks'), `${jwks.handler}: ${marker}`).not.toContain(marker);
    }
    // The marker is live: a bundle with the KMS client has it.
    expect(code('signer')).toContain('TrentService');
  }, 60_000);

  it('refuses at init a verifying contract in a bundle built without the verifier', async () => {
    vi.stubEnv('LAMBDA_BUNDLE_AUTH', 'none');
    vi.resetModules();
    try {
      const { endpoint } = await import('../../shared/http/handler.ts');
      const verifying = rowOf('required');
      const open = rowOf('none');
      const contractOf = (row: typeof verifying) => ({
        ...row,
        operationId: 'fixture',
        description: 'fixture',
        responses: () => ({ 204: { description: 'fixture' } }),
      });
      expect(() => endpoint(contractOf(verifying), () => ({ kind: 'no-content' }))).toThrow(
        /bundled without the verifier/,
      );
      expect(() => endpoint(contractOf(open), () => ({ kind: 'no-content' }))).not.toThrow();
    } finally {
      vi.unstubAllEnvs();
      vi.resetModules();
    }
  });
});
