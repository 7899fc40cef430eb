import { afterEach, describe, expect, it } from 'vitest';
import { addLocalRule, drainLocalBus, startLocalEventBus } from '../../scripts/local/event-bus.ts';

/**
 * The local bus's stop (scripts/local/event-bus.ts) ends with the process: it lets the delivery
 * under way finish and drops the queued ones. It used to deliver every queued event first, so a
 * Ctrl-C of `npm start` after a bulk write (a 540,453-item reseed, a webhook fan-out per change)
 * waited 108 s.
 */
const removers: Array<() => void> = [];
afterEach(() => {
  for (const remove of removers.splice(0)) remove();
});

const put = (endpoint: string, busName: string, count: number) =>
  fetch(endpoint, {
    method: 'POST',
    headers: { 'x-amz-target': 'AWSEvents.PutEvents', 'content-type': 'application/x-amz-json-1.1' },
    body: JSON.stringify({
      Entries: Array.from({ length: count }, (_, i) => ({
        EventBusName: busName,
        Source: 'bus-stop-test',
        DetailType: 'bus.stop.test',
        Detail: JSON.stringify({ i }),
      })),
    }),
  }).then((res) => res.json() as Promise<{ FailedEntryCount: number }>);

describe('stopping the local event bus', () => {
  it('finishes the delivery under way and drops the queued ones', async () => {
    const busName = 'bus-stop-test';
    const bus = await startLocalEventBus({ busName });
    const delivered: string[] = [];
    removers.push(
      addLocalRule({ source: ['bus-stop-test'] }, async (event) => {
        await new Promise((resolve) => setTimeout(resolve, 100));
        delivered.push(event.id);
      }),
    );
    for (let i = 0; i < 3; i++) expect((await put(bus.endpoint, busName, 10)).FailedEntryCount).toBe(0);
    await bus.stop();
    // 30 queued, one at a time per rule at 100 ms each: the old stop delivered all 30 (3 s).
    expect(delivered.length).toBeLessThanOrEqual(1);

    // A bus started afterwards in the same process delivers again.
    const next = await startLocalEventBus({ busName });
    await put(next.endpoint, busName, 2);
    await drainLocalBus();
    await next.stop();
    expect(delivered.length).toBeGreaterThanOrEqual(2);
  });
});
