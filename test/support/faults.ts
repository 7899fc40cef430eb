import type { FirehoseLike } from '../../shared/analytics/sink.ts';
import { dynamo } from '../../shared/db/client.ts';

/** A seeded pseudo-random source in [0, 1), so a fault run is repeatable. */
const seeded = (seed: number) => {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
};

/** Errors as the AWS SDK raises them: throttling, a 5xx, a timeout (all marked retryable). */
const transientErrors = (service: 'dynamodb' | 'firehose') => [
  () =>
    Object.assign(new Error('Rate of requests exceeds the allowed throughput'), {
      name: service === 'dynamodb' ? 'ProvisionedThroughputExceededException' : 'ThrottlingException',
      $retryable: { throttling: true },
    }),
  () =>
    Object.assign(new Error('Internal server error'), {
      name: service === 'dynamodb' ? 'InternalServerError' : 'ServiceUnavailableException',
      $retryable: {},
    }),
  () => Object.assign(new Error('socket timed out'), { name: 'TimeoutError', $retryable: {} }),
];

/**
 * A fault injector around the shared DynamoDB client: at `rate`, a command fails before it is
 * sent with throttling, a 5xx, or a timeout. Removable; counts what it injected.
 */
export const injectDynamoFaults = (rate: number, seed = 1) => {
  const random = seeded(seed);
  const faults = transientErrors('dynamodb');
  const stats = { injected: 0 };
  const name = `faults-${seed}`;
  dynamo.middlewareStack.add(
    (next) => async (args) => {
      if (random() < rate) {
        stats.injected++;
        throw faults[stats.injected % faults.length]!();
      }
      return next(args);
    },
    { step: 'finalizeRequest', name },
  );
  return { stats, remove: () => dynamo.middlewareStack.remove(name) };
};

/**
 * A Firehose stand-in: at `callFailRate` a whole PutRecordBatch call fails (throttling, 5xx,
 * timeout); otherwise each record fails alone at `recordFailRate` (a partial batch failure).
 * Remembers every record it stored, by event_id, and checks the PutRecordBatch limits.
 */
export const faultyFirehose = (options: { callFailRate?: number; recordFailRate: number; seed?: number }) => {
  const random = seeded(options.seed ?? 7);
  const faults = transientErrors('firehose');
  const stored: string[] = [];
  const stats = { calls: 0, failedCalls: 0, failedRecords: 0, largestBatch: 0, largestBytes: 0 };
  const client: FirehoseLike = {
    putRecordBatch: async ({ Records }) => {
      stats.calls++;
      stats.largestBatch = Math.max(stats.largestBatch, Records.length);
      stats.largestBytes = Math.max(
        stats.largestBytes,
        Records.reduce((n, r) => n + r.Data.length, 0),
      );
      if (random() < (options.callFailRate ?? 0)) {
        stats.failedCalls++;
        throw faults[stats.failedCalls % faults.length]!();
      }
      const responses = Records.map((r) => {
        if (random() < options.recordFailRate) {
          stats.failedRecords++;
          return { ErrorCode: 'ServiceUnavailableException' };
        }
        stored.push(JSON.parse(Buffer.from(r.Data).toString()).event_id);
        return { RecordId: 'ok' };
      });
      return { FailedPutCount: responses.filter((r) => r.ErrorCode).length, RequestResponses: responses };
    },
  };
  return { client, stored, stats };
};
