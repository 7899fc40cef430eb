import { AsyncLocalStorage } from 'node:async_hooks';
import * as ddb from '@aws-sdk/client-dynamodb';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { loadHandler, matchRoute, toEvent } from '../scripts/local/server.ts';
import { dynamo } from '../shared/db/client.ts';
import { phasesOf } from './critical-path.ts';
import type { SampleRequest } from './requests.ts';

/** One DynamoDB call a request made: its command and wire input, when it ran, what it consumed. */
export interface Call {
  name: string;
  input: Record<string, unknown>;
  start: number;
  end: number;
  capacity: number;
}

/**
 * The calls of the request being recorded, in its own async context: calls the process makes
 * meanwhile for something else (the local platform's projector, audience publisher and realtime
 * tick share the client in bench/phases.ts) are not the request's and are left out.
 */
const recording = new AsyncLocalStorage<Call[]>();
let installed = false;

/**
 * Records every command the shared client sends (at the serialize step, so inputs are in wire
 * form and can be replayed with the bare client) and asks for ReturnConsumedCapacity.
 */
const install = () => {
  if (installed) return;
  installed = true;
  dynamo.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as Record<string, unknown>;
      const name = String(context.commandName);
      if (!name.startsWith('Describe') && !name.startsWith('Create')) input.ReturnConsumedCapacity = 'TOTAL';
      const start = performance.now();
      const result = await next(args);
      const output = result.output as {
        ConsumedCapacity?: { CapacityUnits?: number } | Array<{ CapacityUnits?: number }>;
      };
      const consumed = Array.isArray(output.ConsumedCapacity)
        ? output.ConsumedCapacity.reduce((sum, c) => sum + (c.CapacityUnits ?? 0), 0)
        : (output.ConsumedCapacity?.CapacityUnits ?? 0);
      recording.getStore()?.push({
        name,
        input: structuredClone(input),
        start,
        end: performance.now(),
        capacity: consumed,
      });
      return result;
    },
    { step: 'serialize', name: 'benchRecorder', priority: 'high' },
  );
};

/** Runs `fn` and answers the DynamoDB calls it made through the shared client (bench/cost.ts). */
export const recordCalls = async <T>(fn: () => Promise<T>): Promise<{ result: T; calls: Call[] }> => {
  install();
  const calls: Call[] = [];
  return { result: await recording.run(calls, fn), calls };
};

const bare = new ddb.DynamoDBClient({
  endpoint: process.env.AWS_ENDPOINT_URL_DYNAMODB,
  region: 'local',
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
});

/**
 * A request's calls as their bare replay runs them: each call waits for the calls that had
 * finished before it started in the recording (the only ones whose results it can have used),
 * and runs alongside the rest. Grouping overlapping calls into waves instead merged dependent
 * chains (a search word's typo reads start when its prefix read ends, while the other word's
 * read is still running) into one wave, so the "bare" baseline had fewer round trips than the
 * requests it stood for.
 */
const dependencies = (calls: Call[]): Array<{ call: Call; after: number[] }> => {
  const ordered = [...calls].sort((a, b) => a.start - b.start);
  return ordered.map((call) => ({
    call,
    after: ordered.flatMap((earlier, index) => (earlier.end <= call.start ? [index] : [])),
  }));
};

const replay = async (plan: Array<{ call: Call; after: number[] }>) => {
  const Commands = ddb as unknown as Record<string, new (input: unknown) => ddb.QueryCommand>;
  const sent: Promise<unknown>[] = [];
  for (const { call, after } of plan) {
    sent.push(
      Promise.all(after.map((i) => sent[i])).then(() => bare.send(new Commands[call.name]!(call.input))),
    );
  }
  await Promise.all(sent);
};

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

export interface WarmResult {
  name: string;
  route: string;
  status: number;
  p50: number;
  p99: number;
  bareP50: number;
  bareP99: number;
  ratio: number;
  calls: number;
  /** Dependent DynamoDB phases of the recorded request (phasesOf). */
  phases: number;
  /** The recorded response's body when it was not 2xx (its first 300 characters). */
  error?: string;
  commands: string[];
  capacity: number;
  scans: number;
}

/**
 * Warm in-process latency of each sample (handler called directly) next to its bare DynamoDB
 * calls. Each handler call is followed by one replay of its calls, and the iterations are spread
 * over `ROUNDS` passes through all the samples, so that a slow stretch of the machine (the JVM of
 * DynamoDB Local collecting, another process) falls on every sample a little rather than on the
 * ones measured at that moment: with one pass, the first sample measured after the catalogue
 * loads came out 1.22-1.33x across runs, its 10x twin a minute later faster than its 1x p50.
 */
export const ROUNDS = 3;

export const measureWarm = async (
  samples: readonly SampleRequest[],
  options: { iterations: number; token?: string },
): Promise<WarmResult[]> => {
  install();
  const prepared = [];
  for (const sample of samples) {
    const url = new URL(`http://127.0.0.1${sample.path}`);
    for (const [k, v] of Object.entries(sample.query ?? {})) url.searchParams.set(k, v);
    const match = matchRoute('GET', url.pathname);
    if (!match) throw new Error(`No route for ${sample.path}`);
    const headers: Record<string, string> =
      sample.auth && options.token ? { authorization: `Bearer ${options.token}` } : {};
    const event = (): APIGatewayProxyEventV2 =>
      toEvent({ method: 'GET', url, headers, body: undefined }, match.row, match.pathParameters);
    const handler = await loadHandler(match.row);
    // Warm up (module init, JWKS cache, connection pool), then record one request's calls.
    for (let i = 0; i < 5; i++) await handler(event());
    const { result: first, calls } = await recordCalls(() => handler(event()));
    prepared.push({
      sample,
      handler,
      event,
      first,
      calls,
      plan: dependencies(calls),
      own: [] as number[],
      bare: [] as number[],
    });
  }
  for (let round = 0; round < ROUNDS; round++) {
    const share =
      Math.ceil(((round + 1) * options.iterations) / ROUNDS) -
      Math.ceil((round * options.iterations) / ROUNDS);
    for (const p of prepared) {
      for (let i = 0; i < share; i++) {
        let t = performance.now();
        await p.handler(p.event());
        p.own.push(performance.now() - t);
        t = performance.now();
        await replay(p.plan);
        p.bare.push(performance.now() - t);
      }
    }
  }
  return prepared.map(({ sample, first, calls, own, bare: bareTimes }) => {
    const p50 = percentile(own, 50);
    const bareP50 = percentile(bareTimes, 50);
    return {
      name: sample.name,
      route: sample.route,
      status: first.statusCode ?? 0,
      p50,
      p99: percentile(own, 99),
      bareP50,
      bareP99: percentile(bareTimes, 99),
      ratio: calls.length === 0 ? Number.NaN : p50 / bareP50,
      calls: calls.length,
      phases: phasesOf(calls),
      ...((first.statusCode ?? 0) >= 300 ? { error: String(first.body).slice(0, 300) } : {}),
      commands: calls.map((c) => c.name.replace(/Command$/, '')),
      capacity: calls.reduce((sum, c) => sum + c.capacity, 0),
      scans: calls.filter((c) => c.name === 'ScanCommand').length,
    };
  });
};
