import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/**
 * Issue 19 (cost): a route with `successLog: { every }` (the live heartbeat) logs one successful
 * request in `every` and publishes its `requests` metric in one EMF record per `every` requests,
 * summed by CloudWatch; failures, and requests that record a domain metric, are logged or
 * published at once, with what is pending. A fresh module per test: the counts are per container.
 */
const load = async () => {
  vi.resetModules();
  const observability = await import('../../shared/observability/index.ts');
  const { logger, metrics } = observability;
  const lines: string[] = [];
  for (const level of ['info', 'warn', 'error'] as const)
    vi.spyOn(logger, level).mockImplementation(((message: unknown) => {
      lines.push(`${level}:${String(message)}`);
    }) as never);
  const records: Record<string, unknown>[] = [];
  vi.spyOn(metrics, 'publishStoredMetrics').mockImplementation(() => {
    if (metrics.hasStoredMetrics()) records.push(metrics.serializeMetrics() as Record<string, unknown>);
    metrics.clearMetrics();
    return metrics;
  });
  // The per-code error record (its own EMF record) is not what this test counts.
  const single = { addDimension: () => single, addMetric: () => single };
  vi.spyOn(metrics, 'singleMetric').mockImplementation(() => single as never);
  return { ...observability, lines, records };
};

const request = (status: number) => ({ requestId: 'r', route: 'GET /x', status, latencyMs: 1 });
const total = (records: Record<string, unknown>[]) =>
  records.flatMap((r) => [r.requests].flat()).reduce((sum: number, v) => sum + Number(v ?? 0), 0);

beforeEach(() => vi.unstubAllEnvs());
afterEach(() => vi.restoreAllMocks());

describe('sampled success logs', () => {
  it('logs every request and publishes each one when the route does not sample', async () => {
    const { recordRequest, lines, records } = await load();
    for (let i = 0; i < 3; i++) recordRequest(request(200));
    expect(lines).toEqual(['info:request', 'info:request', 'info:request']);
    expect(records.map((r) => r.requests)).toEqual([1, 1, 1]);
  });

  it('with SUCCESS_LOG_EVERY=5: the 1st, 6th and 11th of 12 successes logged, every request counted once', async () => {
    vi.stubEnv('SUCCESS_LOG_EVERY', '5');
    const { recordRequest, recordMetric, lines, records } = await load();
    for (let i = 0; i < 12; i++) recordRequest(request(200));
    expect(lines).toEqual(['info:request', 'info:request', 'info:request']);
    expect(records).toHaveLength(3);
    expect(total(records)).toBe(11); // the 12th waits for the next published record
    recordRequest(request(503));
    expect(lines.at(-1)).toBe('error:request');
    expect(total(records)).toBe(13);
    recordMetric('watch_sessions_opened');
    recordRequest(request(200)); // a domain metric publishes at once, logged or not
    expect(lines).toHaveLength(4);
    expect(records.at(-1)).toMatchObject({ requests: 1, watch_sessions_opened: 1 });
    expect(total(records)).toBe(14);
  });
});
