import { dynamo } from '../../shared/db/client.ts';

/**
 * A fault injector around the shared DynamoDB client: at `rate`, a command fails before it is
 * sent with throttling, a 5xx, or a timeout (all marked retryable, as the SDK marks them).
 * Removable; counts what it injected.
 */
export const injectDynamoFaults = (rate: number, seed = 1) => {
  let state = seed;
  const random = () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
  const faults = [
    () =>
      Object.assign(new Error('Rate of requests exceeds the allowed throughput'), {
        name: 'ProvisionedThroughputExceededException',
        $retryable: { throttling: true },
      }),
    () => Object.assign(new Error('Internal server error'), { name: 'InternalServerError', $retryable: {} }),
    () => Object.assign(new Error('socket timed out'), { name: 'TimeoutError', $retryable: {} }),
  ];
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
