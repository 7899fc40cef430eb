import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { routes } from '../../functions/routes.ts';
import * as z from 'zod/mini';
import * as contracts from '../../functions/creators/contracts.ts';
import { handler as listTiersHandler } from '../../functions/creators/list-tiers.ts';
import { apiDescription, tagDescriptions } from '../../functions/routes.ts';
import { generateOpenApi, OPENAPI_FILE } from '../../scripts/openapi.ts';
import { type Contract, contract } from '../../shared/http/contract.ts';
import { creatorResponses } from '../../shared/creators/schemas.ts';
import { buildDocument } from '../../scripts/openapi/build-document.ts';
import { apiEvent } from '../support/events.ts';
import { contractChecker, responseProblems } from '../support/openapi-validator.ts';

describe('the OpenAPI document', () => {
  it('is up to date with the route table and schemas (run npm run openapi)', async () => {
    expect(readFileSync(OPENAPI_FILE, 'utf8')).toBe(generateOpenApi());
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

describe('contract tests', () => {
  const version = '0.0.0-test';
  const documentOf = (contracts: readonly Contract[]) =>
    buildDocument(contracts, { version, description: apiDescription, tags: tagDescriptions });
  const tiers = async () => {
    const res = await listTiersHandler(apiEvent({ route: 'GET /creators/tiers' }));
    return { status: res.statusCode ?? 0, body: JSON.parse(res.body ?? 'null') };
  };

  it('accept what the real handler answers under its own contract', async () => {
    const { status, body } = await tiers();
    expect(
      contractChecker(documentOf([contracts.listTiers]))('GET', '/creators/tiers', status, body),
    ).toEqual([]);
  });

  it('fail the same answer under a deliberately wrong contract: a misnamed field, a wrong type, a wrong status', async () => {
    const { status, body } = await tiers();
    const wrongField = contract({
      ...contracts.listTiers,
      responses: () => ({
        200: { description: 'Tiers', data: z.array(z.object({ id: z.string(), name: z.string() })) },
      }),
    });
    const wrongType = contract({
      ...contracts.listTiers,
      responses: () => ({ 200: { description: 'Tiers', data: z.array(z.number()) } }),
    });
    const wrongStatus = contract({
      ...contracts.listTiers,
      responses: () => ({ 201: { description: 'Tiers', data: z.array(creatorResponses().Tier) } }),
    });
    const check = (c: Contract) => contractChecker(documentOf([c]))('GET', '/creators/tiers', status, body);
    expect(check(wrongField).join()).toMatch(/must have required property 'name'/);
    expect(check(wrongType).join()).toMatch(/must be number/);
    expect(check(wrongStatus).join()).toMatch(/status 200 is not documented/);
  });

  it('fail an undocumented status, a broken envelope, and a body on a 204', () => {
    const check = responseProblems;
    expect(check('GET', '/creators/tiers', 418, { status: 'error', code: 418, message: 'x' }).join()).toMatch(
      /status 418 is not documented/,
    );
    expect(check('GET', '/creators/tiers', 200, { status: 'ok', data: [] })).not.toEqual([]);
    expect(check('GET', '/creators/tiers', 500, { status: 'error', code: '500', message: 'x' })).not.toEqual(
      [],
    );
    expect(check('DELETE', '/v3/reactions', 204, { success: true })).not.toEqual([]);
    expect(check('DELETE', '/v3/reactions', 204, undefined)).toEqual([]);
  });
});
