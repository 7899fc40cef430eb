import * as z from 'zod';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { httpHandler } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { logger } from '../../shared/observability/index.ts';
import { apiEvent } from '../support/events.ts';

afterEach(() => vi.restoreAllMocks());

describe('request logging', () => {
  it('logs one line per request with request id, route, status and latency, and no token or body', async () => {
    const info = vi.spyOn(logger, 'info').mockImplementation(() => {});
    const token = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl';
    const handler = httpHandler({}, () => ok({ fine: true }));
    const res = await handler(
      apiEvent({
        route: 'GET /creators/tiers',
        headers: { authorization: `Bearer ${token}` },
        rawBody: '{"password":"hunter22"}',
      }),
    );
    expect(info).toHaveBeenCalledTimes(1);
    const [message, entry] = info.mock.calls[0] as [string, Record<string, unknown>];
    expect(message).toBe('request');
    expect(entry).toMatchObject({
      requestId: res.headers?.['x-request-id'],
      route: 'GET /creators/tiers',
      status: 200,
      latencyMs: expect.any(Number),
    });
    const logged = JSON.stringify(info.mock.calls);
    expect(logged).not.toContain(token);
    expect(logged).not.toContain('hunter22');
  });

  it('logs 4xx as warnings and 5xx as errors', async () => {
    const warn = vi.spyOn(logger, 'warn').mockImplementation(() => {});
    const error = vi.spyOn(logger, 'error').mockImplementation(() => {});
    await httpHandler({ body: z.object({ a: z.string() }) }, () => ok({}))(
      apiEvent({ route: 'GET /creators', rawBody: '{', headers: { 'content-type': 'application/json' } }),
    );
    expect(warn.mock.calls[0]?.[1]).toMatchObject({ status: 400 });
    await httpHandler({}, () => {
      throw new Error('boom');
    })(apiEvent({ route: 'GET /creators' }));
    expect(error.mock.calls.map((c) => c[0])).toEqual(['Unhandled error', 'request']);
  });
});
