import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { gatewayAnswer } from '../../scripts/local/server.ts';
import { MAX_RESPONSE_BYTES } from '../../shared/http/middleware/response-encoding.ts';
import { acceptsGzip, GZIP_MIN_BYTES } from '../../shared/http/middleware/response-encoding.ts';
import { ok } from '../../shared/http/reply.ts';
import { testEndpoint } from '../support/endpoints.ts';
import { apiEvent } from '../support/events.ts';

const route = 'GET /creators';

describe('acceptsGzip', () => {
  it.each([
    ['gzip', true],
    ['gzip, deflate, br', true],
    ['br;q=1.0, GZIP;q=0.5', true],
    ['x-gzip', true],
    ['*', true],
    ['identity, *;q=0.1', true],
    ['gzip;q=0.001', true],
    ['gzip ; q=0.8', true],
    ['gzip;q=0', false],
    ['gzip;q=0.000', false],
    ['gzip;q=0, *', false],
    ['*;q=0', false],
    ['identity', false],
    ['br, deflate', false],
    ['', false],
    [undefined, false],
    ['gzip;q=2', false],
    ['gzip;q=abc', false],
    ['gzipped', false],
  ] as const)('%j -> %s', (header, expected) => {
    expect(acceptsGzip(header)).toBe(expected);
  });
});

/** Fixed-width items (distinct ids and figures, so they compress as catalogue data does). */
const item = (i: number) => ({
  episode_id: `ep_${String(i).padStart(8, '0')}`,
  title: `Episode ${String(i % 1000).padStart(3, '0')} of a long running show`,
  views: String((i * 7919) % 100_003).padStart(6, '0'),
});
const ITEM_BYTES = JSON.stringify(item(0)).length + 1;
/** At least `bytes` of JSON in items. */
const items = (bytes: number) => Array.from({ length: Math.ceil(bytes / ITEM_BYTES) }, (_, i) => item(i));

const answer = (bytes: number, acceptEncoding?: string) =>
  testEndpoint({}, () => ok(items(bytes)))(
    apiEvent({ route, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} }),
  );

describe('large answers', () => {
  it('sends an answer up to the threshold as it is, gzip accepted or not', async () => {
    const res = await answer(GZIP_MIN_BYTES - 2048, 'gzip');
    expect(res.isBase64Encoded).toBeFalsy();
    expect(res.headers?.['content-encoding']).toBeUndefined();
    expect(res.headers?.vary).toBeUndefined();
    expect(JSON.parse(res.body!).data.length).toBe(items(GZIP_MIN_BYTES - 2048).length);
  });

  it('gzips an answer over the threshold for a caller that accepts gzip, CORS headers kept', async () => {
    const res = await answer(GZIP_MIN_BYTES + 1024, 'gzip, deflate, br');
    expect(res.statusCode).toBe(200);
    expect(res.isBase64Encoded).toBe(true);
    expect(res.headers).toMatchObject({
      'content-type': 'application/json',
      'content-encoding': 'gzip',
      vary: 'accept-encoding',
      'access-control-allow-origin': '*',
      'x-content-type-options': 'nosniff',
    });
    const body = JSON.parse(gunzipSync(Buffer.from(res.body!, 'base64')).toString('utf8'));
    expect(body).toEqual({ status: 'success', data: items(GZIP_MIN_BYTES + 1024) });
  });

  it('sends it uncompressed, with vary, to a caller that does not accept gzip', async () => {
    const res = await answer(GZIP_MIN_BYTES + 1024, 'gzip;q=0, identity');
    expect(res.isBase64Encoded).toBeFalsy();
    expect(res.headers?.['content-encoding']).toBeUndefined();
    expect(res.headers?.vary).toBe('accept-encoding');
    expect(JSON.parse(res.body!).data.length).toBe(items(GZIP_MIN_BYTES + 1024).length);
  });

  it('answers a clear 500, not an answer Lambda cannot return, over the 6 MB limit', async () => {
    const plain = await answer(MAX_RESPONSE_BYTES);
    expect(plain.statusCode).toBe(500);
    expect(JSON.parse(plain.body!)).toEqual({
      status: 'error',
      code: 500,
      message: 'The answer is over 6 MB uncompressed: ask again with Accept-Encoding: gzip',
    });
    expect(plain.headers?.['access-control-allow-origin']).toBe('*');
    expect(plain.headers?.['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const gzipped = await answer(MAX_RESPONSE_BYTES, 'gzip');
    expect(gzipped.statusCode).toBe(200);
    expect(gzipped.headers?.['content-encoding']).toBe('gzip');
    expect(JSON.stringify(gzipped).length).toBeLessThan(MAX_RESPONSE_BYTES);
  });
});

describe('the local gateway', () => {
  it('answers 502 for a function answer over Lambda limit, as serialized (quotes escaped)', () => {
    const body = JSON.stringify({ s: '"'.repeat(MAX_RESPONSE_BYTES / 2) });
    expect(gatewayAnswer({ statusCode: 200, body })).toEqual({
      statusCode: 502,
      headers: { 'content-type': 'application/json' },
      body: '{"message":"Internal Server Error"}',
    });
    const fits = { statusCode: 200, body: 'x'.repeat(MAX_RESPONSE_BYTES - 100) };
    expect(gatewayAnswer(fits)).toBe(fits);
  });
});
