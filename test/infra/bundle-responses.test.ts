import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bundleLambdas } from '../../scripts/lambda-bundle.ts';

/**
 * Lambda bundles carry no response schema (issue 19, cold starts): `LAMBDA_BUNDLE_DEFINE`
 * (infra/bundling.ts) folds away each module's `<domain>Responses` builder, while the request
 * schemas and their documentation stay (the handler validates with them).
 */
const out = mkdtempSync(join(tmpdir(), 'bundle-responses-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('Lambda bundles', () => {
  it('leave the response schemas out and keep the request schemas', async () => {
    const entry = resolve(import.meta.dirname, '../../functions/creators/list-creators.ts');
    const files = await bundleLambdas(new Map([['list-creators', entry]]), out);
    const code = readFileSync(files.get('list-creators')!, 'utf8');
    expect(code).toContain('Only creators of this category');
    expect(code).not.toContain('A creator as lists show them');
    expect(code).not.toContain('abbreviated for display');
  }, 60_000);
});
