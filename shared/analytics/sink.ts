import { backoffMs } from '../backoff.ts';
import { awsClient } from '../aws/local-hook.ts';
import { setting } from '../config.ts';
import { ServiceUnavailableError } from '../errors/errors.ts';

/**
 * Where accepted analytics events go. On AWS: Kinesis Data Firehose (ANALYTICS_STREAM_NAME),
 * which lands them in S3 under `family=<family>/dt=YYYY-MM-DD/hour=HH/`. Locally: NDJSON files with the
 * same layout under `.local/analytics/` (ANALYTICS_DIR; scripts/local/file-sink.ts). An accepted event is never dropped
 * silently: a batch that cannot be delivered after bounded retries fails the request with 503,
 * and the client resends it (a client-sent event_id makes the resend de-duplicable; server-assigned ids do not).
 */
export interface AnalyticsRecord {
  event_id: string;
  /**
   * `catalog`: a row of the title dimension (shared/analytics/title-dimension.ts), not an event;
   * `payment`: a payment fact (shared/analytics/payment-facts.ts).
   */
  family: 'video' | 'live' | 'catalog' | 'payment';
  type: string;
  /** Every player event has one; catalogue rows have none. */
  session_id?: string;
  received_at: string;
  received_at_ms: number;
  client_ts_ms: number;
  [field: string]: unknown;
}

export interface Sink {
  put(records: readonly AnalyticsRecord[]): Promise<void>;
}

/** Firehose limits for PutRecordBatch. */
export const FIREHOSE_MAX_RECORDS = 500;
export const FIREHOSE_MAX_BYTES = 4 * 1024 * 1024;

/** The part of the Firehose client the sink uses (a real FirehoseClient, or a fake in tests). */
export interface FirehoseLike {
  putRecordBatch(input: { DeliveryStreamName: string; Records: Array<{ Data: Uint8Array }> }): Promise<{
    FailedPutCount?: number;
    RequestResponses?: Array<{ ErrorCode?: string; RecordId?: string }>;
  }>;
}

const encode = (record: AnalyticsRecord) => Buffer.from(`${JSON.stringify(record)}\n`);

/** Errors a retry cannot cure: a malformed request, a missing grant, a missing stream. */
const FINAL_ERRORS = new Set(['ValidationException', 'AccessDeniedException', 'ResourceNotFoundException']);

/** Splits records into PutRecordBatch calls within both limits. */
export const chunkForFirehose = (records: readonly AnalyticsRecord[]): Uint8Array[][] => {
  const chunks: Uint8Array[][] = [];
  let current: Uint8Array[] = [];
  let bytes = 0;
  for (const record of records) {
    const data = encode(record);
    if (current.length === FIREHOSE_MAX_RECORDS || bytes + data.length > FIREHOSE_MAX_BYTES) {
      chunks.push(current);
      current = [];
      bytes = 0;
    }
    current.push(data);
    bytes += data.length;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
};

/**
 * Firehose sink: sends each chunk, then resends ONLY the records Firehose reports as failed, with
 * exponential backoff and full jitter, at most `attempts` times. Records still failing → 503.
 */
export const firehoseSink = (
  client: FirehoseLike,
  streamName: string,
  options: { attempts?: number; baseDelayMs?: number; sleep?: (ms: number) => Promise<void> } = {},
): Sink => {
  const attempts = options.attempts ?? 5;
  const base = options.baseDelayMs ?? 50;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const sendChunk = async (chunk: Uint8Array[]) => {
    let pending = chunk;
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt >= attempts)
        throw new ServiceUnavailableError('Analytics delivery is degraded; resend the batch');
      if (attempt > 0) await sleep(backoffMs(attempt, base));
      let result: Awaited<ReturnType<FirehoseLike['putRecordBatch']>>;
      try {
        result = await client.putRecordBatch({
          DeliveryStreamName: streamName,
          Records: pending.map((Data) => ({ Data })),
        });
      } catch (error) {
        if (FINAL_ERRORS.has((error as { name?: string }).name ?? '')) throw error;
        continue; // the whole call failed: retry every pending record
      }
      if (!result.FailedPutCount) return;
      pending = pending.filter((_, i) => result.RequestResponses?.[i]?.ErrorCode);
    }
  };
  return {
    put: async (records) => {
      for (const chunk of chunkForFirehose(records)) await sendChunk(chunk);
    },
  };
};

let sink: Sink | undefined;

/** Replaces this container's sink (tests inject a faulty Firehose); `undefined` restores the default. */
export const useSink = (replacement: Sink | undefined): void => {
  sink = replacement;
};

/**
 * The sink of this container, created on first use: Firehose on ANALYTICS_STREAM_NAME (locally the
 * local platform's Firehose stand-in, which writes the same layout under .local/analytics).
 */
export const getSink = async (): Promise<Sink> => {
  if (sink) return sink;
  const stream = setting('ANALYTICS_STREAM_NAME');
  const { FirehoseClient, PutRecordBatchCommand } = await import('@aws-sdk/client-firehose');
  const client = awsClient(new FirehoseClient({}), 'firehose');
  sink = firehoseSink({ putRecordBatch: (input) => client.send(new PutRecordBatchCommand(input)) }, stream);
  return sink;
};
