import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { routes } from '../../functions/routes.ts';
import { generateOpenApi, OPENAPI_FILE } from '../../scripts/openapi.ts';

describe('the OpenAPI document', () => {
  it('is up to date with the route table and schemas (run npm run openapi)', async () => {
    expect(readFileSync(OPENAPI_FILE, 'utf8')).toBe(await generateOpenApi());
  });

  it('has one operation per route row (the $default catch-all excepted)', () => {
    const doc = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8'));
    const operations = Object.values(doc.paths as Record<string, object>).reduce(
      (n, ops) => n + Object.keys(ops).length,
      0,
    );
    expect(operations).toBe(routes.filter((r) => r.path !== '$default').length);
    expect(doc.openapi).toBe('3.1.0');
    const create = doc.paths['/onboarding/account/create'].post;
    expect(create.requestBody.content['application/json'].schema.required).toEqual(
      expect.arrayContaining(['email', 'password', 'creator_name', 'handle', 'agreed_to_terms']),
    );
    expect(create.responses['422']).toBeDefined();
    expect(doc.paths['/v3/reactions'].post.security).toEqual([{ bearer: [] }]);
    const page = doc.paths['/creators'].get.parameters.find((p: { name: string }) => p.name === 'limit');
    expect(page.schema.maximum).toBe(100);
  });
});

describe('response validation against the document', () => {
  it('accepts the envelopes and rejects a body that breaks them', async () => {
    const { responseProblems } = await import('../support/openapi-validator.ts');
    expect(responseProblems('GET', '/creators', 200, { status: 'success', data: { creators: [] } })).toEqual(
      [],
    );
    expect(responseProblems('GET', '/creators', 200, { status: 'ok', data: {} })).not.toEqual([]);
    expect(
      responseProblems('GET', '/creators', 404, { status: 'error', code: '404', message: 'x' }),
    ).not.toEqual([]);
    expect(
      responseProblems('POST', '/v3/reactions', 422, {
        success: false,
        error: { code: 'VALIDATION_ERROR', message: 'x' },
        requestId: 'r',
      }),
    ).toEqual([]);
  });
});
