import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { NotFoundError } from '../../shared/errors/errors.ts';
import { issueAccessToken } from '../../shared/identity/access-token.ts';
import { errorResponse, MAX_BODY_BYTES } from '../../shared/http/handler.ts';
import { noContent, ok, raw, text } from '../../shared/http/reply.ts';
import { testEndpoint } from '../support/endpoints.ts';
import { apiEvent } from '../support/events.ts';

const parse = (body: string | undefined) => JSON.parse(body ?? 'null');
const echo = testEndpoint({ body: z.object({ a: z.string() }) }, ({ body }) => ok(body));
const route = 'GET /creators';

describe('JSON body parsing', () => {
  it('tells a non-JSON content type (415) from a malformed body (400) whatever the JSON media type', async () => {
    const send = (type: string | undefined, rawBody: string) =>
      echo(apiEvent({ route, rawBody, headers: type ? { 'content-type': type } : {} }));
    const cases: Array<[string | undefined, string, number]> = [
      ['application/json', '{"a":"x"}', 200],
      ['application/json; charset=utf-8', '{"a":"x"}', 200],
      ['application/vnd.api+json', '{"a":"x"}', 200],
      ['application/vnd.api+json', '{"a":', 400],
      ['application/json', 'not json', 400],
      ['text/plain', '{"a":"x"}', 415],
      ['application/x-www-form-urlencoded', 'a=x', 415],
      [undefined, '{"a":"x"}', 415],
    ];
    for (const [type, body, status] of cases) {
      const res = await send(type, body);
      expect(res.statusCode, `${type} ${body}`).toBe(status);
    }
    expect(parse((await send('text/plain', '{"a":"x"}')).body)).toEqual({
      status: 'error',
      code: 415,
      message: 'Request body must be sent as application/json',
    });
    expect(parse((await send('application/vnd.api+json', '{')).body)).toEqual({
      status: 'error',
      code: 400,
      message: 'Malformed JSON body',
    });
  });

  it('reads header names in any case and base64-encoded bodies', async () => {
    const upper = await echo(
      apiEvent({ route, rawBody: '{"a":"x"}', headers: { 'Content-Type': 'application/json' } }),
    );
    expect(parse(upper.body).data).toEqual({ a: 'x' });
    const event = apiEvent({ route, body: { a: 'y' } });
    event.body = Buffer.from(event.body ?? '').toString('base64');
    event.isBase64Encoded = true;
    expect(parse((await echo(event)).body).data).toEqual({ a: 'y' });
  });

  it('leaves the body alone for an endpoint that takes none', async () => {
    const res = await testEndpoint({}, () => ok({}))(
      apiEvent({ route, rawBody: 'not json', headers: { 'content-type': 'text/plain' } }),
    );
    expect(res.statusCode).toBe(200);
  });
});

describe('request header names (lower case, as API Gateway delivers them)', () => {
  // No header normalizer in the chain: API Gateway's HTTP API (payload format 2.0) names every
  // header in lower case and joins a repeated header's values with commas. apiEvent builds the
  // event the same way, so a client's mixed-case names reach the handler as API Gateway's would.
  const handle = 'PUT /onboarding/account/handle'; // auth required, no rate limit: reachable offline

  it('serves a request whose client sent mixed-case header names: the event names them in lower case', async () => {
    const { token } = await issueAccessToken('acc_headers', new Date());
    const event = apiEvent({
      route: handle,
      rawBody: '{"handle":"x"}',
      headers: { Authorization: `Bearer ${token}`, 'CONTENT-TYPE': 'application/json', 'X-Trace': 'a' },
    });
    const res = await testEndpoint({ body: z.object({ handle: z.string() }) }, (req) =>
      ok({ account: req.caller().accountId, handle: req.body.handle }),
    )(event);
    expect(res.statusCode).toBe(200);
    expect(parse(res.body).data).toEqual({ account: 'acc_headers', handle: 'x' });
    expect(Object.keys(event.headers).sort()).toEqual(['authorization', 'content-type', 'x-trace']);
  });

  it('hands the handler the lower-cased `authorization` and `content-type`, repeats comma-joined', async () => {
    const res = await testEndpoint({}, ({ headers }) =>
      ok({
        authorization: headers.authorization,
        type: headers['content-type'],
        mixed: headers['Content-Type'] ?? null,
        repeated: headers['x-thing'],
      }),
    )(
      apiEvent({
        route,
        headers: {
          Authorization: 'Basic eA==',
          'Content-Type': 'text/plain',
          'X-Thing': '1',
          'x-thing': '2',
        },
      }),
    );
    expect(parse(res.body).data).toEqual({
      authorization: 'Basic eA==',
      type: 'text/plain',
      mixed: null,
      repeated: '1,2',
    });
  });
});

describe('order of checks', () => {
  // A required-auth route without a rate limit: 413, 401, 415/400 and 422 can all be reached offline.
  const handle = 'PUT /onboarding/account/handle';
  const guarded = testEndpoint({ body: z.object({ handle: z.string() }) }, () => ok({}));

  it('answers 413 before 401 before 415/400 before 422', async () => {
    const tooBig = await guarded(apiEvent({ route: handle, body: { pad: 'x'.repeat(MAX_BODY_BYTES) } }));
    expect(tooBig.statusCode).toBe(413);
    const anonymous = await guarded(
      apiEvent({ route: handle, rawBody: '{', headers: { 'content-type': 'text/plain' } }),
    );
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers?.['www-authenticate']).toBe('Bearer');
    const basic = await guarded(
      apiEvent({ route: handle, body: { handle: 1 }, headers: { Authorization: 'Basic eA==' } }),
    );
    expect(basic.statusCode).toBe(401);
    expect(parse(basic.body).message).toBe('Authorization header must be "Bearer <token>"');
    expect(basic.headers?.['www-authenticate']).toBe(
      'Bearer error="invalid_request", error_description="The Authorization header must be \'Bearer <token>\'"',
    );
    const both = testEndpoint(
      { query: z.object({ n: z.coerce.number() }), body: z.object({ a: z.string() }) },
      () => ok({}),
    );
    const badQueryAndBody = await both(apiEvent({ route, query: { n: 'x' }, body: { a: 1 } }));
    expect(badQueryAndBody.statusCode).toBe(400);
    const badBody = await both(apiEvent({ route, query: { n: '1' }, body: { a: 1 } }));
    expect(badBody.statusCode).toBe(422);
  });
});

describe('response headers', () => {
  it('sends CORS headers and the request id on JSON, 204 and error answers, and no CORS on a page', async () => {
    const answers = {
      json: await testEndpoint({}, () => raw({ keys: [] }, { 'cache-control': 'max-age=60' }))(
        apiEvent({ route }),
      ),
      empty: await testEndpoint({}, () => noContent())(apiEvent({ route })),
      error: await testEndpoint({}, () => {
        throw new NotFoundError();
      })(apiEvent({ route })),
    };
    for (const [name, res] of Object.entries(answers)) {
      expect(res.headers?.['access-control-allow-origin'], name).toBe('*');
      expect(res.headers?.['access-control-expose-headers'], name).toContain('x-request-id');
      expect(res.headers?.['x-request-id'], name).toMatch(/^[0-9a-f-]{36}$/);
    }
    expect(answers.json.headers?.['cache-control']).toBe('max-age=60');
    expect(answers.empty.headers?.['content-type']).toBeUndefined();
    const page = await testEndpoint({}, () => text('<p>hi</p>', 'text/html; charset=utf-8'))(
      apiEvent({ route: 'GET /docs' }),
    );
    expect(page.headers?.['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers?.['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(page.headers?.['access-control-allow-origin']).toBeUndefined();
  });

  it('gives each request its own id, the one the reactions envelope carries, even on a reused context', async () => {
    const handler = testEndpoint({}, () => ok({}));
    const context = {};
    const first = await handler(apiEvent({ route: 'POST /v3/reactions' }), context);
    const second = await handler(apiEvent({ route: 'POST /v3/reactions' }), context);
    expect(first.statusCode).toBe(401);
    const body = parse(first.body);
    expect(body).toEqual({
      success: false,
      error: { code: 'UNAUTHORIZED', message: 'Missing or invalid bearer token' },
      requestId: first.headers?.['x-request-id'],
    });
    expect(second.headers?.['x-request-id']).not.toBe(first.headers?.['x-request-id']);
  });

  it('answers outside the chain (the local gateway) with the same headers', () => {
    const res = errorResponse(undefined, new NotFoundError('No route'), 'id-1');
    expect(res.statusCode).toBe(404);
    expect(res.headers).toMatchObject({
      'content-type': 'application/json',
      'access-control-allow-origin': '*',
      'x-request-id': 'id-1',
    });
    expect(parse(res.body)).toEqual({ status: 'error', code: 404, message: 'No route' });
  });
});
