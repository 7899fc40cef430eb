import * as z from 'zod';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ConflictError,
  NotFoundError,
  ServiceUnavailableError,
  TooManyRequestsError,
} from '../../shared/errors/errors.ts';
import { ok } from '../../shared/http/reply.ts';
import { errorCodeDimension, logger, type Metrics, metrics } from '../../shared/observability/index.ts';
import { testEndpoint } from '../support/endpoints.ts';
import { apiEvent } from '../support/events.ts';

afterEach(() => vi.restoreAllMocks());

describe('request logging', () => {
  it('logs one line per request with request id, route, status and latency, and no token or body', async () => {
    const info = vi.spyOn(logger, 'info').mockImplementation(() => {});
    const token = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl';
    const handler = testEndpoint({}, () => ok({ fine: true }));
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
    await testEndpoint({ body: z.object({ a: z.string() }) }, () => ok({}))(
      apiEvent({ route: 'GET /creators', rawBody: '{', headers: { 'content-type': 'application/json' } }),
    );
    expect(warn.mock.calls[0]?.[1]).toMatchObject({ status: 400 });
    await testEndpoint({}, () => {
      throw new Error('boom');
    })(apiEvent({ route: 'GET /creators' }));
    expect(error.mock.calls.map((c) => c[0])).toEqual(['Unhandled error', 'request']);
  });
});

/**
 * Captures the EMF records the request metrics and the per-error single metrics would print (metrics
 * are disabled off Lambda, so the records are taken from `serializeMetrics` at publish time).
 */
const captureEmf = () => {
  const records: Record<string, unknown>[] = [];
  const capture = (instance: Metrics) =>
    vi.spyOn(instance, 'publishStoredMetrics').mockImplementation(() => {
      if (instance.hasStoredMetrics()) records.push(instance.serializeMetrics() as Record<string, unknown>);
      instance.clearMetrics();
      instance.clearDimensions();
      return instance;
    });
  capture(metrics);
  const singleMetric = metrics.singleMetric.bind(metrics);
  vi.spyOn(metrics, 'singleMetric').mockImplementation(() => {
    const single = singleMetric();
    capture(single);
    return single;
  });
  return records;
};

type Emf = { _aws: { CloudWatchMetrics: { Dimensions: string[][]; Metrics: { Name: string }[] }[] } };
const dimensionsOf = (record: Record<string, unknown>) =>
  (record as unknown as Emf)._aws.CloudWatchMetrics[0]?.Dimensions;

const failing = (error: unknown) =>
  testEndpoint({}, () => {
    throw error;
  })(apiEvent({ route: 'GET /creators/tiers' }));

describe('error metrics by code', () => {
  const json = { 'content-type': 'application/json' };
  const cases: [string, () => Promise<{ statusCode?: number }>, number, string][] = [
    [
      'invalid body',
      () =>
        testEndpoint({ body: z.object({ a: z.string() }) }, () => ok({}))(
          apiEvent({ route: 'GET /creators', body: { a: 1 } }),
        ),
      422,
      'VALIDATION_ERROR',
    ],
    [
      'malformed JSON',
      () =>
        testEndpoint({ body: z.object({ a: z.string() }) }, () => ok({}))(
          apiEvent({ route: 'GET /creators', rawBody: '{', headers: json }),
        ),
      400,
      'BAD_REQUEST',
    ],
    ['rate limit', () => failing(new TooManyRequestsError('Slow down', 'rate_limit')), 429, 'RATE_LIMITED'],
    [
      'stream limit',
      () => failing(new TooManyRequestsError('Too many streams', 'concurrent_streams')),
      429,
      'CONCURRENT_STREAM_LIMIT',
    ],
    ['dependency down', () => failing(new ServiceUnavailableError()), 503, 'UNAVAILABLE'],
    [
      'DynamoDB throttling',
      () => failing(Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' })),
      503,
      'UNAVAILABLE',
    ],
    [
      'an account quota (IVS Chat rooms)',
      () => failing(Object.assign(new Error('quota'), { name: 'ServiceQuotaExceededException' })),
      503,
      'UNAVAILABLE',
    ],
    ['unmapped error', () => failing(new Error('boom')), 500, 'INTERNAL'],
    ['not found', () => failing(new NotFoundError()), 404, 'NOT_FOUND'],
    ['conflict', () => failing(new ConflictError('Handle taken')), 409, 'CONFLICT'],
  ];

  const rows = cases.map(([name, call, status, code]) => ({ name, call, status, code }));
  it.each(rows)(
    '$name: $status counts errors{errorCode=$code} and the total',
    async ({ call, status, code }) => {
      vi.spyOn(logger, 'warn').mockImplementation(() => {});
      const error = vi.spyOn(logger, 'error').mockImplementation(() => {});
      const records = captureEmf();
      const res = await call();
      expect(res.statusCode).toBe(status);
      const byCode = records.filter((r) => dimensionsOf(r)?.[0]?.includes('errorCode'));
      expect(byCode).toHaveLength(1);
      expect(byCode[0]).toMatchObject({ errorCode: code, errors: 1, service: expect.any(String) });
      expect(dimensionsOf(byCode[0]!)).toEqual([['service', 'errorCode']]);
      const request = records.filter((r) => 'requests' in r);
      expect(request).toHaveLength(1);
      expect(request[0]).toMatchObject({ requests: 1, errors: 1 });
      expect(request[0]).not.toHaveProperty('errorCode');
      const line = [...error.mock.calls, ...vi.mocked(logger.warn).mock.calls].find(
        (c) => c[0] === 'request',
      );
      expect(line?.[1]).toMatchObject({ status, errorCode: code });
    },
  );

  it('counts only requests for a success', async () => {
    vi.spyOn(logger, 'info').mockImplementation(() => {});
    const records = captureEmf();
    await testEndpoint({}, () => ok({ fine: true }))(apiEvent({ route: 'GET /creators/tiers' }));
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ requests: 1 });
    expect(records[0]).not.toHaveProperty('errors');
    expect(metrics.singleMetric).not.toHaveBeenCalled();
  });

  it('puts no token, body or personal data in the metrics or the request log line', async () => {
    const warn = vi.spyOn(logger, 'warn').mockImplementation(() => {});
    const records = captureEmf();
    const token = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl';
    const res = await testEndpoint(
      { body: z.object({ email: z.email(), password: z.string().min(20) }) },
      () => ok({}),
    )(
      apiEvent({
        route: 'GET /creators',
        body: { email: 'viewer@example.com', password: 'hunter22' },
        headers: { authorization: `Bearer ${token}` },
      }),
    );
    expect(res.statusCode).toBe(422);
    const seen = JSON.stringify([records, warn.mock.calls]);
    for (const secret of [token, 'viewer@example.com', 'hunter22']) expect(seen).not.toContain(secret);
    expect(seen).toContain('VALIDATION_ERROR');
  });

  it('never turns something that is not an error code into a dimension value', () => {
    expect(errorCodeDimension(422, 'VALIDATION_ERROR')).toBe('VALIDATION_ERROR');
    expect(errorCodeDimension(500, 'viewer@example.com')).toBe('HTTP_500');
    expect(errorCodeDimension(400, 'Bearer abc')).toBe('HTTP_400');
    expect(errorCodeDimension(502)).toBe('HTTP_502');
    expect(errorCodeDimension(400, 'A'.repeat(41))).toBe('HTTP_400');
  });
});
