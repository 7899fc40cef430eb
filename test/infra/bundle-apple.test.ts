import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleDefineOf, LAMBDA_BUNDLE_ALIAS, lambdaEsbuildOptions } from '../../infra/bundling.ts';
import { signedTransaction } from '../../scripts/local/appstore/notifications.ts';
import { makeTestChain, type TestChain } from '../../scripts/local/appstore/signing.ts';

/**
 * Issue 41: the Apple verifying bundles import Apple's verifier module rather than the library's
 * index, and every bundle has Node's URL for `whatwg-url` (infra/bundling.ts). What must still
 * hold is the verification itself, as bundled: the verifier and `verifiedBy`
 * (shared/stores/apple-verifier.ts), built with the Lambda options and alias and run in a fresh
 * Node, accept a transaction signed through a chain to the given root for this app, and refuse one
 * for another app or from another root with the 400s the routes answer.
 */
const dir = mkdtempSync(join(tmpdir(), 'bundle-apple-'));
const file = join(dir, 'index.mjs');
let inputs: string[] = [];
let chain: TestChain;
let other: TestChain;
const APP = { bundleId: 'com.example.creators', environment: 'Sandbox' as const };

beforeAll(async () => {
  const result = await build({
    entryPoints: [resolve(import.meta.dirname, 'fixtures/apple-verify.ts')],
    outfile: file,
    ...lambdaEsbuildOptions(),
    define: bundleDefineOf(undefined),
    alias: { ...LAMBDA_BUNDLE_ALIAS },
    metafile: true,
    logLevel: 'error',
  });
  inputs = Object.keys(result.metafile.inputs);
  chain = await makeTestChain({ name: 'Bundle test' });
  other = await makeTestChain({ name: 'Another root' });
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The bundle's verifyTransaction in a fresh Node process. */
const verify = (roots: Buffer[], signed: string) =>
  JSON.parse(
    execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        'const m = await import(process.argv[1]); process.stdout.write(JSON.stringify(await m.verifyTransaction(JSON.parse(process.argv[2]), process.argv[3], process.argv[4])))',
        file,
        JSON.stringify(roots.map((r) => r.toString('base64'))),
        APP.bundleId,
        signed,
      ],
      { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } },
    ),
  );

describe("Apple's verifier as bundled (issue 41)", () => {
  it("carries the verifier module, not the library's index, nor whatwg-url and its tr46 tables", () => {
    expect(inputs.some((i) => i.endsWith('app-store-server-library/dist/jws_verification.js'))).toBe(true);
    expect(inputs.filter((i) => i.endsWith('app-store-server-library/dist/index.js'))).toEqual([]);
    expect(inputs.filter((i) => /node_modules\/(whatwg-url|tr46)\//.test(i))).toEqual([]);
    expect(readFileSync(file, 'utf8')).not.toContain('AppStoreServerAPIClient');
  });

  it('accepts a transaction signed for this app through a chain to the root', () => {
    const signed = signedTransaction(chain, APP, { productId: 'p1', transactionId: '2000000000000001' });
    expect(verify([chain.root], signed)).toEqual({ ok: true, transactionId: '2000000000000001' });
  });

  it('refuses one from another root, and one for another app, as bad requests (the routes’ 400s)', () => {
    const signed = signedTransaction(other, APP, { productId: 'p1' });
    expect(verify([chain.root], signed)).toMatchObject({
      ok: false,
      kind: 'bad_request',
      message: 'Invalid transaction: its signature or certificate chain is not valid',
    });
    const forOther = signedTransaction(chain, { ...APP, bundleId: 'com.example.other' }, { productId: 'p1' });
    expect(verify([chain.root], forOther)).toMatchObject({
      ok: false,
      kind: 'bad_request',
      message: 'Invalid transaction: it is for another app',
    });
  });
});
