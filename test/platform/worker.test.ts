import { resolve } from 'node:path';
import type { SQSEvent } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { accountJobsRow } from '../../functions/accounts/workers.ts';
import { eventPublisherRow } from '../../functions/events/worker.ts';
import { mailWorkers } from '../../functions/mail/workers.ts';
import { paymentWorkers } from '../../functions/payments/workers.ts';
import { realtimeWorkers } from '../../functions/realtime/workers.ts';
import { webhookWorkers } from '../../functions/webhooks/workers.ts';
import { workers } from '../../functions/workers.ts';
import { metrics, recordMetric } from '../../shared/observability/index.ts';
import { sqsWorker, worker } from '../../shared/platform/worker.ts';
import { settingsOf } from '../../shared/platform/access.ts';
import type { WorkerRow } from '../../shared/routing/function-row.ts';
import { captureLog } from '../support/log-lines.ts';

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

const row = {
  trigger: '$queue/test-work',
  handler: 'test/work',
  dynamo: { actions: ['GetItem'] },
  summary: 'a worker of the test',
} as const satisfies WorkerRow;

const sqsEvent = (...bodies: string[]) =>
  ({ Records: bodies.map((body, i) => ({ messageId: `m${i}`, body })) }) as unknown as SQSEvent;

describe('worker(row, fn)', () => {
  it("answers fn's result, logs the one line it describes with the trigger, and flushes the metrics", async () => {
    const log = captureLog();
    const publish = vi.spyOn(metrics, 'publishStoredMetrics');
    const handler = worker(
      row,
      async (event: { n: number }) => {
        recordMetric('test_work_done');
        return { doubled: event.n * 2 };
      },
      (result) => ({ level: 'warn', message: 'work done', fields: result }),
    );
    expect(await handler({ n: 21 })).toEqual({ doubled: 42 });
    expect(log.lines()).toEqual([
      { level: 'WARN', message: 'work done', trigger: '$queue/test-work', doubled: 42 },
    ]);
    expect(publish).toHaveBeenCalledTimes(1);
    expect(metrics.hasStoredMetrics()).toBe(false);
  });

  it('logs an ERROR line with the error and rethrows it (the trigger retries), metrics flushed', async () => {
    const log = captureLog();
    const publish = vi.spyOn(metrics, 'publishStoredMetrics');
    const handler = worker(row, async () => {
      recordMetric('test_work_started');
      throw new TypeError('boom');
    });
    await expect(handler()).rejects.toThrow('boom');
    expect(log.lines()).toEqual([
      {
        level: 'ERROR',
        message: '$queue/test-work failed',
        trigger: '$queue/test-work',
        error: { name: 'TypeError', message: 'boom' },
      },
    ]);
    expect(publish).toHaveBeenCalledTimes(1);
  });

  it('publishes nothing when nothing was recorded (no empty-metrics warning per invocation)', async () => {
    const publish = vi.spyOn(metrics, 'publishStoredMetrics');
    await worker(row, async () => 'quiet')();
    expect(publish).not.toHaveBeenCalled();
  });

  it("checks the row's settings at init when it runs as the row's function (ROUTE_KEY its trigger)", () => {
    for (const name of settingsOf(row)) vi.stubEnv(name, 'set');
    vi.stubEnv('ROUTE_KEY', row.trigger);
    vi.stubEnv('TABLE_NAME', '');
    expect(() => worker(row, async () => undefined)).toThrow(/missing settings its row needs: TABLE_NAME$/);
    vi.stubEnv('TABLE_NAME', 'table');
    expect(() => worker(row, async () => undefined)).not.toThrow();
  });
});

describe('sqsWorker(row, failure, each)', () => {
  it('reports exactly the messages whose handling threw as batch item failures, and logs them without bodies', async () => {
    const log = captureLog();
    const seen: unknown[] = [];
    const handler = sqsWorker(row, 'test work failed', async (body, messageId) => {
      seen.push(body);
      if (messageId === 'm1') throw new Error('secret body detail');
    });
    const result = await handler(sqsEvent('{"a":1}', '{"b":2}', 'not json'));
    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: 'm1' }] });
    expect(seen).toEqual([{ a: 1 }, { b: 2 }, undefined]);
    expect(log.lines()).toEqual([
      {
        level: 'ERROR',
        message: 'test work failed',
        trigger: '$queue/test-work',
        error: 'Error',
        messageId: 'm1',
      },
    ]);
  });
});

describe('every worker of the stack', () => {
  const rows: readonly WorkerRow[] = [
    ...workers,
    eventPublisherRow,
    ...webhookWorkers,
    ...mailWorkers,
    ...paymentWorkers,
    accountJobsRow,
    ...realtimeWorkers,
  ];

  it.each(rows.map((r) => [r.handler, r] as const))(
    'functions/%s.ts is worker(row, fn) of its own row',
    async (handler, r) => {
      const module = (await import(resolve(import.meta.dirname, '../../functions', `${handler}.ts`))) as {
        handler: { row?: WorkerRow };
      };
      expect(module.handler.row).toBe(r);
    },
  );
});
