import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { assertSettings } from './access.ts';
import { functionKey, type WorkerRow } from '../routing/function-row.ts';
import { logger, metrics } from '../observability/index.ts';

/** The one line a worker logs for an invocation that finished: its level, message and fields. */
export interface WorkerLine {
  level?: 'info' | 'warn';
  message: string;
  fields?: Record<string, unknown>;
}

/** The error's name and message as a log field (never a body, a token or an address). */
const errorField = (error: unknown) => ({ name: (error as Error)?.name, message: (error as Error)?.message });

/**
 * The Lambda handler of one event worker, as `endpoint(contract, fn)` is an HTTP endpoint's: its
 * row (functions/workers.ts and the domains' `workers.ts`) and the function that handles one
 * invocation's event. At init, as Lambda runs it (ROUTE_KEY is the row's trigger), every setting
 * the row implies must be there (assertSettings). Each invocation: `fn`, then the one line
 * `line(result, event)` describes (the shared logger, with the trigger), or, when `fn` throws,
 * an ERROR line with the error's name and message and the error rethrown (so the trigger's
 * retries and failure destinations apply); metrics recorded meanwhile are flushed either way.
 * The handler carries its row (`handler.row`), as an endpoint's carries its contract.
 */
export const worker = <F extends (event: never) => Promise<unknown>>(
  row: WorkerRow,
  fn: F,
  line?: (result: Awaited<ReturnType<F>>, event: Parameters<F>[0]) => WorkerLine | undefined,
): F => {
  if (process.env.ROUTE_KEY === functionKey(row)) assertSettings(row, process.env);
  const handler = async (...args: Parameters<F>) => {
    try {
      const call = fn as unknown as (...a: Parameters<F>) => ReturnType<F>;
      const result = (await call(...args)) as Awaited<ReturnType<F>>;
      const entry = line?.(result, args[0]);
      if (entry) logger[entry.level ?? 'info'](entry.message, { trigger: row.trigger, ...entry.fields });
      return result;
    } catch (error) {
      logger.error(`${row.trigger} failed`, { trigger: row.trigger, error: errorField(error) });
      throw error;
    } finally {
      if (metrics.hasStoredMetrics()) metrics.publishStoredMetrics();
    }
  };
  return Object.assign(handler, { row }) as unknown as F;
};

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/**
 * A worker on an SQS event source with partial batch responses (the stack sets
 * ReportBatchItemFailures on every queue's mapping): `each` gets every message's body (parsed
 * JSON, or undefined when it is not JSON), all in parallel. An error it throws fails only that
 * message, which SQS redelivers (then its dead-letter queue), logged as `failure` with the
 * error's name and the message id, never the body.
 */
export const sqsWorker = (
  row: WorkerRow,
  failure: string,
  each: (body: unknown, messageId: string) => Promise<void>,
): ((event: SQSEvent) => Promise<SQSBatchResponse>) =>
  worker(row, async (event: SQSEvent) => {
    const failures = await Promise.all(
      event.Records.map(async (record) => {
        try {
          await each(parseJson(record.body), record.messageId);
          return undefined;
        } catch (error) {
          logger.error(failure, {
            trigger: row.trigger,
            error: (error as Error).name,
            messageId: record.messageId,
          });
          return { itemIdentifier: record.messageId };
        }
      }),
    );
    return { batchItemFailures: failures.filter((f) => f !== undefined) };
  });
