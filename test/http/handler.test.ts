import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { routesByKey } from '../../functions/routes.ts';
import { clock } from '../../shared/clock.ts';
import { ConflictError, NotFoundError, TooManyRequestsError } from '../../shared/errors/errors.ts';
import { MAX_BODY_BYTES } from '../../shared/http/handler.ts';
import { created, noContent, ok } from '../../shared/http/reply.ts';
import { enumParam, pageQuery } from '../../shared/schema/validation.ts';
import { testEndpoint } from '../support/endpoints.ts';
import { apiEvent } from '../support/events.ts';

// A route that exists in the table (its row decides auth and envelope); the function is ours.
const route = 'GET /creators';
const parse = (body: string | undefined) => JSON.parse(body ?? 'null');

describe('httpHandler', () => {
  const query = z.object({ kind: z._default(enumParam('kind', ['a', 'b']), 'a'), ...pageQuery(20) });

  it('wraps data in the success envelope with meta_data and a request id', async () => {
    const handler = testEndpoint({ query }, ({ query }) =>
      ok({ kind: query.kind }, { meta_data: { page: query.page } }),
    );
    const res = await handler(apiEvent({ route, query: { kind: 'b', page: '3' } }));
    expect(res.statusCode).toBe(200);
    expect(parse(res.body)).toEqual({ status: 'success', meta_data: { page: 3 }, data: { kind: 'b' } });
    expect(res.headers?.['content-type']).toBe('application/json');
    expect(res.headers?.['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers?.['access-control-allow-origin']).toBe('*');
  });

  it('answers 400 naming the allowed values for a bad query enum', async () => {
    const handler = testEndpoint({ query }, () => ok({}));
    const res = await handler(apiEvent({ route, query: { kind: 'zzz' } }));
    expect(res.statusCode).toBe(400);
    const body = parse(res.body);
    expect(body).toMatchObject({ status: 'error', code: 400 });
    expect(body.message).toContain('kind must be one of: a, b');
  });

  it('answers 400 for out-of-range page and limit', async () => {
    const handler = testEndpoint({ query }, () => ok({}));
    const cases: Array<Record<string, string>> = [
      { limit: '0' },
      { limit: '101' },
      { page: '-1' },
      { page: 'x' },
      { limit: '1.5' },
    ];
    for (const q of cases) {
      const res = await handler(apiEvent({ route, query: q }));
      expect(res.statusCode, JSON.stringify(q)).toBe(400);
    }
  });

  it('answers 422 with errors[] for an invalid body', async () => {
    const body = z.object({ email: z.email(), password: z.string().min(8) });
    const handler = testEndpoint({ body }, () => created({}));
    const res = await handler(apiEvent({ route, body: { email: 'nope', password: 'short' } }));
    expect(res.statusCode).toBe(422);
    const parsed = parse(res.body);
    expect(parsed.status).toBe('error');
    expect(parsed.code).toBe(422);
    expect(parsed.errors.map((e: { field: string }) => e.field).sort()).toEqual(['email', 'password']);
  });

  it('says a missing field or query parameter is required, whatever its schema says of a bad one', async () => {
    const handler = testEndpoint(
      {
        query: z.object({ session_id: z.uuid({ error: 'session_id must be a session id (UUID)' }) }),
        body: z.object({
          items: z.array(z.object({ device_type: enumParam('device_type', ['web', 'ios']) })),
        }),
      },
      () => ok({}),
    );
    const noQuery = await handler(apiEvent({ route, body: { items: [] } }));
    expect(noQuery.statusCode).toBe(400);
    expect(parse(noQuery.body).message).toBe('Missing required query parameter session_id');
    const badQuery = await handler(apiEvent({ route, query: { session_id: 'x' }, body: { items: [] } }));
    expect(parse(badQuery.body).message).toBe(
      'Invalid query parameter session_id: session_id must be a session id (UUID)',
    );
    const noDevice = await handler(
      apiEvent({
        route,
        query: { session_id: crypto.randomUUID() },
        body: { items: [{}, { device_type: 'tv' }] },
      }),
    );
    expect(noDevice.statusCode).toBe(422);
    expect(parse(noDevice.body).errors).toEqual([
      { field: 'items.0.device_type', message: 'device_type is required' },
      { field: 'items.1.device_type', message: 'device_type must be one of: web, ios' },
    ]);
  });

  it('answers 422 naming a field the body schema does not know, at any depth (strict bodies)', async () => {
    const body = z.object({ title: z.string(), tags: z.optional(z.array(z.object({ name: z.string() }))) });
    const handler = testEndpoint({ body }, () => created({}));
    const misspelt = await handler(
      apiEvent({ route, body: { title: 'x', descripton: 'y', tags: [{ name: 'a', colour: 'red' }] } }),
    );
    expect(misspelt.statusCode).toBe(422);
    expect(parse(misspelt.body).errors).toEqual([
      { field: 'descripton', message: 'descripton is not a field of this request body' },
      { field: 'tags.0.colour', message: 'tags.0.colour is not a field of this request body' },
    ]);
    const fine = await handler(apiEvent({ route, body: { title: 'x', tags: [{ name: 'a' }] } }));
    expect(fine.statusCode).toBe(201);
    // JSON.parse makes `__proto__` an own key; it is an unknown field, not a lookup on Object.prototype (was a 500).
    const polluting = await handler(
      apiEvent({
        route,
        rawBody: '{"title":"x","__proto__":{"admin":true}}',
        headers: { 'content-type': 'application/json' },
      }),
    );
    expect(polluting.statusCode).toBe(422);
    expect(parse(polluting.body).errors).toEqual([
      { field: '__proto__', message: '__proto__ is not a field of this request body' },
    ]);
  });

  it('answers 400 for malformed JSON and 415 for a non-JSON content type', async () => {
    const handler = testEndpoint({ body: z.object({ a: z.string() }) }, () => ok({}));
    const malformed = await handler(
      apiEvent({ route, rawBody: '{"a":', headers: { 'content-type': 'application/json' } }),
    );
    expect(malformed.statusCode).toBe(400);
    expect(parse(malformed.body)).toEqual({ status: 'error', code: 400, message: 'Malformed JSON body' });
    const wrongType = await handler(
      apiEvent({ route, rawBody: 'a=1', headers: { 'content-type': 'text/plain' } }),
    );
    expect(wrongType.statusCode).toBe(415);
  });

  it('answers 413 past the body size limit', async () => {
    const handler = testEndpoint({ body: z.object({}) }, () => ok({}));
    const res = await handler(apiEvent({ route, body: { pad: 'x'.repeat(MAX_BODY_BYTES) } }));
    expect(res.statusCode).toBe(413);
    expect(parse(res.body).code).toBe(413);
  });

  it('maps typed domain errors to their status and envelope', async () => {
    const cases: Array<[Error, number, Record<string, string>]> = [
      [new NotFoundError('Creator not found'), 404, {}],
      [new ConflictError('handle already taken'), 409, {}],
      [
        new TooManyRequestsError('slow down', 'rate_limit', { 'retry-after': '3' }),
        429,
        { reason: 'rate_limit' },
      ],
      [new TooManyRequestsError('end one', 'concurrent_streams'), 429, { reason: 'concurrent_streams' }],
    ];
    for (const [error, status, extra] of cases) {
      const res = await testEndpoint({}, () => {
        throw error;
      })(apiEvent({ route }));
      expect(res.statusCode).toBe(status);
      expect(parse(res.body)).toEqual({ status: 'error', code: status, message: error.message, ...extra });
    }
  });

  it('hides unexpected errors behind a 500 INTERNAL envelope', async () => {
    const res = await testEndpoint({}, () => {
      throw new Error('secret table name leaked');
    })(apiEvent({ route }));
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toContain('secret');
    expect(parse(res.body)).toEqual({
      status: 'error',
      code: 500,
      message: { code: 'INTERNAL', message: 'Internal error' },
    });
  });

  it('answers 503 with Retry-After when DynamoDB throttles', async () => {
    const res = await testEndpoint({}, () => {
      throw Object.assign(new Error('Rate exceeded'), { name: 'ProvisionedThroughputExceededException' });
    })(apiEvent({ route }));
    expect(res.statusCode).toBe(503);
    expect(res.headers?.['retry-after']).toBe('1');
  });

  it('answers 204 with no body for noContent', async () => {
    const res = await testEndpoint({}, () => noContent())(apiEvent({ route }));
    expect(res.statusCode).toBe(204);
    expect(res.body).toBeUndefined();
  });

  it('passes the injected clock as now', async () => {
    const fixed = new Date('2026-03-08T07:00:00Z');
    const original = clock.now;
    clock.now = () => fixed;
    try {
      const res = await testEndpoint({}, ({ now }) => ok({ now: now.toISOString() }))(apiEvent({ route }));
      expect(parse(res.body).data.now).toBe(fixed.toISOString());
    } finally {
      clock.now = original;
    }
  });

  it('knows every route row by its key', () => {
    expect(routesByKey.get('GET /creators/{id}')?.handler).toBe('creators/get-creator');
  });
});
