import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  ExpiredIteratorException,
  GetRecordsCommand,
  type GetRecordsCommandOutput,
  GetShardIteratorCommand,
  ListStreamsCommand,
  type _Record as RawRecord,
  type AttributeValue as RawValue,
  ResourceNotFoundException,
  type Shard,
  type ShardIteratorType,
  TrimmedDataAccessException,
} from '@aws-sdk/client-dynamodb-streams';
import type { AttributeValue, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { awsClient } from '../../shared/aws/local-hook.ts';
import { dynamoClientConfig } from '../../shared/db/client.ts';

/**
 * The local stand-in for Lambda's DynamoDB Streams event source mapping (docs/projections.md).
 * DynamoDB Local serves the Streams API but nothing invokes a function from it, so this module
 * polls the table's stream and calls `handler` the way the mapping would:
 * - records arrive as a `DynamoDBStreamEvent`, shaped as Lambda delivers them (images as
 *   attribute values, binary as base64, creation time in epoch seconds);
 * - per shard, one batch at a time and in sequence order; a child shard only after its parent;
 * - `ReportBatchItemFailures`: the batch is checkpointed up to the first reported failure and
 *   re-delivered from that record on; a handler that throws fails the whole batch; after
 *   `maxRetries` re-deliveries the failing record goes to `onFailure` (the on-failure
 *   destination) and the shard moves past it.
 * DynamoDB Local's known quirks are absorbed here: a GetRecords answer without
 * NextShardIterator (the stream is described again and the shard resumed after the last record
 * delivered), iterators refused as invalid ("Invalid ShardId in ShardIterator") or expired (a new
 * iterator AFTER_SEQUENCE_NUMBER of the last record delivered, or of the shard's tip found at a
 * LATEST start), TrimmedDataAccessException for an iterator taken while the shard was empty
 * (DynamoDB Local numbers records across all its tables: once other tables have written, the
 * shard's first record is past the iterator's position, which it reports as trimmed; the same
 * reopening), and shards that disappear.
 * When no shard has records it sleeps `pollMs` between polls (Amplify's mock uses 250 ms).
 */

export type TableStreamHandler = (
  event: DynamoDBStreamEvent,
  // biome-ignore lint/suspicious/noConfusingVoidType: the Lambda handler contract (DynamoDBStreamHandler)
) => Promise<DynamoDBBatchResponse | void> | DynamoDBBatchResponse | void;

/** Why a record was given up on, as the on-failure destination would be told. */
export interface TableStreamFailure {
  record: DynamoDBRecord;
  /** Deliveries of this record that failed (1 + maxRetries). */
  attempts: number;
  /** What the handler threw, if it threw (otherwise it reported the record as failed). */
  error?: unknown;
}

export interface TableStreamOptions {
  /**
   * A Streams client; by default one configured as shared/db/client.ts's, which finds DynamoDB
   * Local through the SDK's `AWS_ENDPOINT_URL_DYNAMODB_STREAMS` (service id "DynamoDB Streams").
   */
  client?: DynamoDBStreamsClient;
  tableName: string;
  handler: TableStreamHandler;
  /** Records per event at most (the mapping's BatchSize). */
  batchSize?: number;
  /** Pause between polls when no shard had records. */
  pollMs?: number;
  /** Re-deliveries of a failing record before it goes to `onFailure` (MaximumRetryAttempts). */
  maxRetries?: number;
  /** The on-failure destination; by default the record is logged to stderr. */
  onFailure?: (failure: TableStreamFailure) => void | Promise<void>;
  /** Where to start in the shards open at start-up; shards found later are read from their start. */
  startingPosition?: 'LATEST' | 'TRIM_HORIZON';
}

export interface TableStream {
  /** Resolves once every record written before the call has been handled (or given up on). */
  drain(): Promise<void>;
  /** Stops polling; resolves when the batch in hand (if any) is finished. */
  stop(): Promise<void>;
}

/** What is known about one shard of the stream. */
interface ShardState {
  id: string;
  parentId?: string;
  /** Set once the shard is closed (a child took over): reading ends after this record. */
  endingSequence?: string;
  iterator?: string;
  /** Where the next iterator must start: after the last record handled, else this position. */
  lastSequence?: string;
  initialPosition: 'LATEST' | 'TRIM_HORIZON';
  /** The record at the head of the shard that is being retried, and how often it failed. */
  failing?: { sequence: string; attempts: number };
  done: boolean;
}

/** What one poll of one shard did, for the loop and for drain(). */
type ShardOutcome = 'records' | 'empty' | 'failed' | 'error';

const defaultClient = (): DynamoDBStreamsClient =>
  awsClient(new DynamoDBStreamsClient(dynamoClientConfig()), 'dynamodb');

/** SDK attribute values (binary as bytes) → the JSON form Lambda delivers (binary as base64). */
const toLambdaValue = (value: RawValue): AttributeValue => {
  if (value.B !== undefined) return { B: Buffer.from(value.B).toString('base64') };
  if (value.BS !== undefined) return { BS: value.BS.map((b) => Buffer.from(b).toString('base64')) };
  if (value.L !== undefined) return { L: value.L.map(toLambdaValue) };
  if (value.M !== undefined) return { M: toLambdaImage(value.M) as Record<string, AttributeValue> };
  return value as AttributeValue;
};
const toLambdaImage = (image?: Record<string, RawValue>): Record<string, AttributeValue> | undefined =>
  image && Object.fromEntries(Object.entries(image).map(([name, value]) => [name, toLambdaValue(value)]));

/**
 * DynamoDB Local's JVM keeps the real clock when a test run starts at a chosen instant (TEST_NOW,
 * test/support/shifted-clock.ts: only `Date` moves, by TEST_CLOCK_OFFSET_MS); its records are
 * stamped on the run's clock, as the events made from them are read on it. 0 otherwise.
 */
const jvmClockBehindMs = (): number => Number(process.env.TEST_CLOCK_OFFSET_MS ?? 0);

const toLambdaRecord = (raw: RawRecord, streamArn: string): DynamoDBRecord => {
  const d = raw.dynamodb ?? {};
  const created = d.ApproximateCreationDateTime;
  return {
    eventID: raw.eventID,
    eventName: raw.eventName as DynamoDBRecord['eventName'],
    eventVersion: raw.eventVersion ?? '1.1',
    eventSource: 'aws:dynamodb',
    // The region is the stream's (the ARN's fourth field), as on AWS.
    awsRegion: streamArn.split(':')[3] ?? raw.awsRegion,
    dynamodb: {
      ...(created !== undefined
        ? {
            ApproximateCreationDateTime: Math.floor(
              (new Date(created).getTime() + jvmClockBehindMs()) / 1000,
            ),
          }
        : {}),
      Keys: toLambdaImage(d.Keys),
      ...(d.NewImage ? { NewImage: toLambdaImage(d.NewImage) } : {}),
      ...(d.OldImage ? { OldImage: toLambdaImage(d.OldImage) } : {}),
      SequenceNumber: d.SequenceNumber,
      SizeBytes: d.SizeBytes,
      StreamViewType: d.StreamViewType,
    },
    eventSourceARN: streamArn,
  };
};

/** The pause before the pass that reopens an iterator a pass found refused, expired or trimmed. */
const REOPEN_MS = 50;

/** Sequence numbers are decimal strings of varying length: compare them as big integers. */
const seqAfter = (a: string, b: string): boolean => BigInt(a) > BigInt(b);

const isInvalidIterator = (error: unknown): boolean =>
  error instanceof ExpiredIteratorException ||
  error instanceof TrimmedDataAccessException ||
  (error instanceof Error && /ShardIterator|shard iterator/i.test(error.message));

/** Polls the stream of `tableName` and delivers its records to `handler` (see the module comment). */
export const startTableStream = async (options: TableStreamOptions): Promise<TableStream> => {
  const client = options.client ?? defaultClient();
  const batchSize = options.batchSize ?? 100;
  const pollMs = options.pollMs ?? 250;
  const maxRetries = options.maxRetries ?? 2;
  const onFailure =
    options.onFailure ??
    (({ record, attempts }: TableStreamFailure) =>
      console.error(
        `table stream: gave up on ${record.dynamodb?.SequenceNumber} after ${attempts} attempts`,
      ));
  const startingPosition = options.startingPosition ?? 'LATEST';

  // The table's current stream (a table deleted and created again gets a new one: take the newest).
  const { Streams = [] } = await client.send(new ListStreamsCommand({ TableName: options.tableName }));
  const streamArn = Streams.filter((s) => s.StreamArn)
    .sort((a, b) => String(b.StreamLabel).localeCompare(String(a.StreamLabel)))
    .at(0)?.StreamArn;
  if (!streamArn) throw new Error(`table ${options.tableName} has no stream (is StreamSpecification set?)`);

  const shards = new Map<string, ShardState>();

  /** Learns the stream's shards: new ones are added, closed ones get their ending sequence. */
  const describe = async (initial: boolean): Promise<void> => {
    const listed: Shard[] = [];
    let start: string | undefined;
    do {
      const { StreamDescription } = await client.send(
        new DescribeStreamCommand({ StreamArn: streamArn, ExclusiveStartShardId: start }),
      );
      listed.push(...(StreamDescription?.Shards ?? []));
      start = StreamDescription?.LastEvaluatedShardId;
    } while (start);
    const seen = new Set<string>();
    for (const shard of listed) {
      if (!shard.ShardId) continue;
      seen.add(shard.ShardId);
      const ending = shard.SequenceNumberRange?.EndingSequenceNumber;
      const known = shards.get(shard.ShardId);
      if (known) {
        known.endingSequence ??= ending;
        continue;
      }
      // At start-up, LATEST skips what is already there: closed shards are finished, open ones
      // start at their tip. Shards that appear later are children: read from their beginning.
      const skip = initial && startingPosition === 'LATEST';
      shards.set(shard.ShardId, {
        id: shard.ShardId,
        parentId: shard.ParentShardId,
        endingSequence: ending,
        initialPosition: skip ? 'LATEST' : 'TRIM_HORIZON',
        done: skip && ending !== undefined,
      });
    }
    // Ephemeral shards: a shard the stream no longer lists has nothing left to read.
    for (const state of shards.values()) if (!seen.has(state.id)) state.done = true;
  };

  /** A fresh iterator for a shard: after the last record handled, else its initial position. */
  const openIterator = async (state: ShardState, at?: string): Promise<void> => {
    const position: { ShardIteratorType: ShardIteratorType; SequenceNumber?: string } = at
      ? { ShardIteratorType: 'AT_SEQUENCE_NUMBER', SequenceNumber: at }
      : state.lastSequence
        ? { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: state.lastSequence }
        : { ShardIteratorType: state.initialPosition };
    const open = (where: typeof position) =>
      client.send(new GetShardIteratorCommand({ StreamArn: streamArn, ShardId: state.id, ...where }));
    try {
      const { ShardIterator } = await open(position).catch((error: unknown) => {
        // The records after the position expired: the mapping goes on from the oldest one kept.
        if (error instanceof TrimmedDataAccessException) return open({ ShardIteratorType: 'TRIM_HORIZON' });
        throw error;
      });
      state.iterator = ShardIterator;
      if (!ShardIterator) state.done = true;
    } catch (error) {
      if (error instanceof ResourceNotFoundException) {
        state.done = true; // the shard is gone (ephemeral)
        return;
      }
      throw error;
    }
  };

  const ready = (state: ShardState): boolean => {
    if (state.done) return false;
    const parent = state.parentId ? shards.get(state.parentId) : undefined;
    return !parent || parent.done; // children after parents
  };

  /** Delivers a batch; returns the index of the first failed record, or -1, and what was thrown. */
  const deliver = async (records: DynamoDBRecord[]): Promise<{ failedAt: number; error?: unknown }> => {
    let response: DynamoDBBatchResponse | undefined;
    try {
      response = (await options.handler({ Records: records })) ?? undefined;
    } catch (error) {
      return { failedAt: 0, error }; // a throw fails the whole batch
    }
    const failures = response?.batchItemFailures ?? [];
    if (failures.length === 0) return { failedAt: -1 };
    // Lambda checkpoints before the lowest reported sequence number; an identifier that names no
    // record of the batch (empty, null, unknown) fails the whole batch.
    let failedAt = records.length;
    for (const { itemIdentifier } of failures) {
      const index = records.findIndex((r) => r.dynamodb?.SequenceNumber === itemIdentifier);
      if (index < 0) return { failedAt: 0 };
      failedAt = Math.min(failedAt, index);
    }
    return { failedAt };
  };

  /** Reads and delivers one batch of one shard. */
  const pollShard = async (state: ShardState): Promise<ShardOutcome> => {
    if (!state.iterator) await openIterator(state);
    if (state.done || !state.iterator) return 'empty';
    let answer: GetRecordsCommandOutput;
    try {
      answer = await client.send(new GetRecordsCommand({ ShardIterator: state.iterator, Limit: batchSize }));
    } catch (error) {
      if (error instanceof ResourceNotFoundException) {
        state.done = true;
        return 'error';
      }
      if (!isInvalidIterator(error)) throw error;
      // "Invalid ShardId in ShardIterator", expired or "trimmed": reopen on the next poll, after
      // the last record delivered (or, at start, the shard's tip), else from the shard's beginning.
      state.iterator = undefined;
      return 'error';
    }
    const raw = answer.Records ?? [];
    const next = answer.NextShardIterator;
    const used = state.iterator;
    // No NextShardIterator: the end of a closed shard, or DynamoDB Local's quirk on an open one.
    // The stream is described again (has the shard closed?); an open shard resumes after the
    // last record delivered, or, when nothing came, with the same iterator (iterators may be
    // reused until they expire), so a shard started at LATEST loses nothing.
    state.iterator = next;
    let exhausted = false;
    if (!next) {
      await describe(false);
      const last = raw.at(-1)?.dynamodb?.SequenceNumber;
      exhausted = !!state.endingSequence && (!last || !seqAfter(state.endingSequence, last));
      if (raw.length === 0 && !exhausted) state.iterator = used;
    }
    if (raw.length === 0) {
      if (exhausted) state.done = true;
      return 'empty'; // nothing was there when read: as quiet as a normal empty answer
    }

    const records = raw.map((r) => toLambdaRecord(r, streamArn));
    const { failedAt, error } = await deliver(records);
    if (failedAt < 0) {
      state.lastSequence = records.at(-1)?.dynamodb?.SequenceNumber;
      state.failing = undefined;
      if (exhausted) state.done = true;
      return 'records';
    }
    // Checkpoint what succeeded, then either re-deliver from the failed record or give it up.
    if (failedAt > 0) state.lastSequence = records[failedAt - 1]?.dynamodb?.SequenceNumber;
    const failed = records[failedAt] as DynamoDBRecord;
    const sequence = failed.dynamodb?.SequenceNumber as string;
    const attempts = state.failing?.sequence === sequence ? state.failing.attempts + 1 : 1;
    if (attempts > maxRetries) {
      await onFailure({ record: failed, attempts, ...(error !== undefined ? { error } : {}) });
      state.lastSequence = sequence;
      state.failing = undefined;
      await openIterator(state); // after the record given up on
    } else {
      state.failing = { sequence, attempts };
      await openIterator(state, sequence); // from the failed record on
    }
    // A closed shard whose last record was just given up on is finished.
    if (!state.iterator && state.endingSequence) state.done = true;
    return 'failed';
  };

  // The poll loop. One pass polls every ready shard once (shards in parallel, as the mapping
  // does); passes follow each other at once while there are records, else every pollMs.
  let stopped = false;
  let wake: (() => void) | undefined;
  let drainers: Array<{ after: number; resolve: () => void; reject: (e: Error) => void }> = [];
  let passes = 0;

  /**
   * Reads an open shard to its tip, delivering nothing, so that the shard resumes AFTER the last
   * record written before the start. A LATEST iterator would be lost when DynamoDB Local refuses
   * it ("Invalid ShardId in ShardIterator"): reopened at a new LATEST, it skipped what was written
   * in between, and its records' creation times (stamped to the minute) cannot tell before from
   * after. A position after a sequence number survives a refusal; an empty shard starts from its
   * beginning (everything in it came after the start).
   */
  const scanToTip = async (state: ShardState): Promise<void> => {
    state.initialPosition = 'TRIM_HORIZON';
    for (let refusals = 0; ; ) {
      if (!state.iterator) await openIterator(state);
      if (state.done || !state.iterator) return;
      let answer: GetRecordsCommandOutput;
      try {
        answer = await client.send(new GetRecordsCommand({ ShardIterator: state.iterator, Limit: 1000 }));
      } catch (error) {
        if (!isInvalidIterator(error) || ++refusals > 5) throw error;
        state.iterator = undefined; // reopened after the last record seen
        continue;
      }
      const last = answer.Records?.at(-1)?.dynamodb?.SequenceNumber;
      if (last) state.lastSequence = last;
      // An answer without a next iterator (DynamoDB Local's quirk on an open shard) reopens after
      // the last record seen when the shard is polled.
      state.iterator = answer.NextShardIterator;
      if (!last || !state.iterator) return;
    }
  };

  await describe(true);
  // Find each open shard's tip now, so that "LATEST" means the moment startTableStream resolved.
  await Promise.all(
    [...shards.values()]
      .filter(ready)
      .map((s) => (s.initialPosition === 'LATEST' ? scanToTip(s) : openIterator(s))),
  );

  /** One pass; true when records were delivered (then the next pass follows at once). */
  const pass = async (): Promise<{ delivered: boolean; reopened: boolean }> => {
    const started = ++passes;
    let quiet = true;
    let delivered = false;
    let reopened = false;
    try {
      await describe(false);
      const polled = new Set<string>();
      // Shards that become ready during the pass (a parent finished) are polled in the same pass.
      for (let batch = [...shards.values()].filter(ready); batch.length > 0; ) {
        const outcomes = await Promise.all(batch.map((s) => pollShard(s)));
        for (const s of batch) polled.add(s.id);
        if (outcomes.some((o) => o !== 'empty')) quiet = false;
        if (outcomes.includes('records')) delivered = true;
        if (outcomes.includes('error')) reopened = true;
        batch = [...shards.values()].filter((s) => ready(s) && !polled.has(s.id));
      }
    } catch (error) {
      console.error('table stream: poll failed', error);
      quiet = false;
    }
    // Quiet pass begun after a drain() call: every earlier write has been handled.
    if (quiet) {
      const waiting = drainers;
      drainers = waiting.filter((d) => d.after >= started);
      for (const d of waiting) if (d.after < started) d.resolve();
    }
    return { delivered, reopened };
  };

  const loop = (async () => {
    while (!stopped) {
      const { delivered, reopened } = await pass();
      // More may be waiting: poll again at once, unless a retry is pending (then pollMs is its
      // backoff). An iterator to reopen: soon (records may be waiting behind it, and a drain()
      // with them). Idle or failing, wait pollMs.
      const retrying = [...shards.values()].some((s) => s.failing !== undefined);
      if (stopped || (delivered && !retrying)) continue;
      // A drain() called during this pass waits for the next one: now, not pollMs from now.
      if (!retrying && drainers.some((d) => d.after >= passes)) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, reopened && !retrying ? Math.min(pollMs, REOPEN_MS) : pollMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = undefined;
    }
  })();

  return {
    drain: () =>
      stopped
        ? Promise.reject(new Error('table stream stopped'))
        : new Promise<void>((resolve, reject) => {
            drainers.push({ after: passes, resolve, reject });
            wake?.();
          }),
    stop: async () => {
      stopped = true;
      wake?.();
      await loop;
      for (const d of drainers.splice(0)) d.reject(new Error('table stream stopped before draining'));
    },
  };
};
