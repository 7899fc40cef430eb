import { describe, expect, it } from 'vitest';
import { CORS_HEADERS, CORS_PREFLIGHT_HEADERS } from '../../shared/http/cors.ts';

// The one CORS policy, as the handlers and the local gateway send it (the stack's preflight
// configuration is checked in test/infra/stack.test.ts).
const policy = {
  'access-control-allow-origin': '*',
  'access-control-allow-headers': 'authorization,content-type',
  'access-control-allow-methods': 'GET,POST,PUT,PATCH,DELETE,OPTIONS',
};

describe('CORS', () => {
  it('answers every response with the allowed origin, methods, headers and the exposed headers', () => {
    expect(CORS_HEADERS).toEqual({
      ...policy,
      'access-control-expose-headers': 'x-request-id,retry-after,ratelimit,ratelimit-policy',
    });
  });

  it('answers a local preflight with the same policy, cached for 10 minutes', () => {
    expect(CORS_PREFLIGHT_HEADERS).toEqual({ ...policy, 'access-control-max-age': '600' });
  });
});
