/**
 * The data floor of a function's first request (issue 41, item 2): which DynamoDB calls it made
 * and in what phases, recorded by a front that forwards to DynamoDB Local (`recordingFront`), and
 * the handler that makes just those calls (bench/data-floor-handler.ts) built as the functions
 * are (`buildDataFloor`). bench/lambda-init.ts runs it cold beside each function, so a function's
 * cold start splits into the floor's, the data its route reads, and our code.
 */
import { createServer, request } from 'node:http';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { bundleLambdas } from '../scripts/lambda-bundle.ts';
import { depthsOf } from './critical-path.ts';
import type { DataFloorCall } from './data-floor-handler.ts';

interface Recorded extends DataFloorCall {
  start: number;
  end: number;
}

/** The calls grouped by phase, in the order they were sent. */
export const phasesOfCalls = (calls: readonly Recorded[]): DataFloorCall[][] => {
  const ordered = [...calls].sort((a, b) => a.start - b.start);
  const phases: DataFloorCall[][] = [];
  depthsOf(ordered).forEach((depth, i) => {
    const { op, input } = ordered[i]!;
    phases[depth - 1] = [...(phases[depth - 1] ?? []), { op, input }];
  });
  return phases;
};

/**
 * An HTTP front for `target` (DynamoDB Local) recording every call's operation, input and time.
 * `delayMs` holds each call that long before forwarding it, as a network round trip would: a cold
 * process sends the calls it starts together a few milliseconds apart (its first serialisation
 * and signing), which without the delay could arrive after the first had already been answered
 * and be counted as a phase of their own.
 */
export const recordingFront = async (target: string, options: { delayMs?: number } = {}) => {
  const to = new URL(target);
  let calls: Recorded[] = [];
  const server = createServer((req, res) => {
    const start = performance.now();
    const body: Buffer[] = [];
    req.on('data', (chunk: Buffer) => body.push(chunk));
    req.on('end', () => setTimeout(forward, options.delayMs ?? 0));
    const forward = () => {
      const sent = Buffer.concat(body);
      const up = request(
        { host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 500, answer.headers);
          answer.pipe(res);
          answer.on('end', () => {
            const op = String(req.headers['x-amz-target'] ?? '').split('.')[1] as DataFloorCall['op'];
            calls.push({
              op,
              input: JSON.parse(sent.toString('utf8')) as never,
              start,
              end: performance.now(),
            });
          });
        },
      );
      up.on('error', (error) => res.destroy(error));
      up.end(sent);
    };
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** The calls recorded since the last take. */
    take: () => {
      const taken = calls;
      calls = [];
      return taken;
    },
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
};

/** Data floor bundle, built as the functions and the fair floor are (environment credentials). */
export const buildDataFloor = async (outDir: string): Promise<string> =>
  (
    await bundleLambdas(new Map([['data-floor', join(import.meta.dirname, 'data-floor-handler.ts')]]), outDir)
  ).get('data-floor')!;
