import { request } from 'node:http';
import type { IncomingMessage, Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientIp, requestUrl, startLocalApi } from '../../scripts/local/server.ts';

/** Findings of the outside probe on the local gateway, each a regression test. */
const fakeRequest = (headers: Record<string, string>, url = '/creators', peer = '127.0.0.9') =>
  ({ headers, url, socket: { remoteAddress: peer } }) as unknown as IncomingMessage;

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

  describe('on a running gateway', () => {
    let server: Server;
    let port: number;
    beforeAll(async () => {
      const started = await startLocalApi(0);
      server = started.server;
      port = Number(new URL(started.url).port);
    });
    afterAll(() => server.close());

    const get = (host: string) =>
      new Promise<number>((done, fail) => {
        const req = request({ host: '127.0.0.1', port, path: '/no/such/route', headers: { host } }, (res) => {
          res.resume();
          done(res.statusCode ?? 0);
        });
        req.on('error', fail);
        req.end();
      });

    it('answers 404 (the catch-all), not 500, whatever the Host', async () => {
      for (const host of ['%', 'a b', '[::1', '']) expect(await get(host), host).toBe(404);
    });
  });
});
