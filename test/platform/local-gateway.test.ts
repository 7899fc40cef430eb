import { request } from 'node:http';
import type { IncomingMessage, Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientIp, requestUrl, startLocalApi } from '../../scripts/local/server.ts';

/** Findings of the outside probe on the local gateway, each a regression test. */
const fakeRequest = (headers: Record<string, string>, url = '/creators', peer = '127.0.0.9') =>
  ({ headers, url, socket: { remoteAddress: peer } }) as unknown as IncomingMessage;

/** One local gateway for the file's requests (the unit tests above need none). */
let server: Server;
let port: number;
beforeAll(async () => {
  const started = await startLocalApi(0);
  server = started.server;
  port = Number(new URL(started.url).port);
});
afterAll(() => server.close());

/** The status the running gateway answers one raw request with. */
const statusOf = (options: {
  method?: string;
  path: string;
  headers: Record<string, string | string[]>;
  body?: string;
}) =>
  new Promise<number>((done, fail) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'GET',
        path: options.path,
        headers: options.headers,
      },
      (res) => {
        res.resume();
        done(res.statusCode ?? 0);
      },
    );
    req.on('error', fail);
    req.end(options.body);
  });

describe('the caller address (per-IP budgets)', () => {
  it('ignores X-Forwarded-For unless the gateway trusts a proxy in front of it', () => {
    expect(clientIp(fakeRequest({ 'x-forwarded-for': '203.0.113.7' }), false)).toBe('127.0.0.9');
    expect(clientIp(fakeRequest({ 'x-forwarded-for': '203.0.113.7, 10.0.0.1' }), true)).toBe('203.0.113.7');
  });

  it('takes only a well-formed IP from a trusted X-Forwarded-For, never an oversized or random value', () => {
    for (const value of ['x'.repeat(3000), 'not-an-ip', '999.1.1.1', `${'1'.repeat(60)}::1`, '']) {
      expect(clientIp(fakeRequest({ 'x-forwarded-for': value }), true)).toBe('127.0.0.9');
    }
    expect(clientIp(fakeRequest({ 'x-forwarded-for': '2001:db8::1' }), true)).toBe('2001:db8::1');
  });
});

describe('malformed Host headers', () => {
  it('parse to the server name instead of throwing', () => {
    for (const host of ['%', 'a b', '[::1', '', 'a:b:c', '[::1]:', 'x'.repeat(300)]) {
      expect(() => requestUrl(fakeRequest({ host }, '/creators?limit=1')), host).not.toThrow();
      expect(requestUrl(fakeRequest({ host }, '/creators?limit=1')).pathname).toBe('/creators');
    }
    expect(requestUrl(fakeRequest({ host: 'localhost:3000' })).host).toBe('localhost:3000');
  });

  it('answers 404 (the catch-all), not 500, whatever the Host, on a running gateway', async () => {
    for (const host of ['%', 'a b', '[::1', ''])
      expect(await statusOf({ path: '/no/such/route', headers: { host } }), host).toBe(404);
  });
});

describe('request headers on a running gateway (as API Gateway hands them to a function)', () => {
  // An `auth: 'none'` route with a body and no rate limit: its content-type check (415) and body
  // validation (422) answer before any call to DynamoDB.
  const post = (headers: Record<string, string | string[]>) =>
    statusOf({ method: 'POST', path: '/billing/google/notifications', headers, body: '{}' });

  it('names them in lower case whatever case the client sent', async () => {
    expect(await post({ 'CONTENT-TYPE': 'application/json' })).toBe(422);
    expect(await post({ 'Content-Type': 'text/plain' })).toBe(415);
  });

  it('joins a repeated header with commas, every value kept (Node keeps only the first content-type)', async () => {
    // API Gateway: "Duplicate headers are combined with commas", so `application/json,text/plain`,
    // which is not a JSON media type.
    expect(await post({ 'Content-Type': ['application/json', 'text/plain'] })).toBe(415);
  });
});
