import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { phasesOfCalls, recordingFront } from '../../bench/data-floor.ts';

// A stand-in DynamoDB answering each call after the delay its input names.
const upstream = createServer((req, res) => {
  let body = '';
  req.on('data', (chunk) => (body += chunk));
  req.on('end', () => {
    const { delay } = JSON.parse(body) as { delay: number };
    setTimeout(() => res.end(JSON.stringify({ echoed: req.headers['x-amz-target'] })), delay);
  });
});
await new Promise<void>((done) => upstream.listen(0, '127.0.0.1', done));
afterAll(() => new Promise<void>((done) => upstream.close(() => done())));

const call = (endpoint: string, op: string, delay: number) =>
  fetch(endpoint, {
    method: 'POST',
    headers: { 'x-amz-target': `DynamoDB_20120810.${op}` },
    body: JSON.stringify({ delay }),
  }).then((r) => r.json());

describe('the data floor (bench/data-floor.ts, issue 41 item 2)', () => {
  it('holds each call for delayMs, so calls sent a few ms apart are one phase', async () => {
    const front = await recordingFront(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}`, {
      delayMs: 40,
    });
    try {
      const first = call(front.endpoint, 'Query', 0);
      await new Promise((r) => setTimeout(r, 10));
      await Promise.all([first, call(front.endpoint, 'BatchGetItem', 0)]);
      expect(phasesOfCalls(front.take()).map((p) => p.length)).toEqual([2]);
    } finally {
      await front.close();
    }
  });

  it("records each call's operation and input through the front and groups them by phase", async () => {
    const front = await recordingFront(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}`);
    try {
      // Phase 1: a GetItem; phase 2: a Query and a BatchGetItem side by side; phase 3: a Query.
      expect(await call(front.endpoint, 'GetItem', 20)).toEqual({ echoed: 'DynamoDB_20120810.GetItem' });
      await Promise.all([call(front.endpoint, 'Query', 40), call(front.endpoint, 'BatchGetItem', 10)]);
      await call(front.endpoint, 'Query', 5);
      const phases = phasesOfCalls(front.take());
      expect(phases.map((p) => p.map((c) => c.op).sort())).toEqual([
        ['GetItem'],
        ['BatchGetItem', 'Query'],
        ['Query'],
      ]);
      expect(phases[0]![0]!.input).toEqual({ delay: 20 });
      // take() empties the record.
      expect(front.take()).toEqual([]);
    } finally {
      await front.close();
    }
  });
});
