import { randomInt } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { DEVICE_TYPES } from '../../shared/catalog/model.ts';
import { BUCKET_SECONDS, VIEWER_SHARDS } from '../../shared/audience/viewer-counter.ts';
import { viewerPeakKey } from '../../shared/audience/viewer-counter-repository.ts';
import { keyString } from '../../shared/db/key.ts';

/**
 * An in-memory stand-in for the table, shared by every simulated container: it applies the two
 * kinds of writes the counter sends (ADD to a shard, conditional max of a peak) and tallies
 * writes and item reads per item per second of simulated time.
 */
const table = vi.hoisted(() => {
  const items = new Map<string, Record<string, any>>();
  const writes = new Map<string, Map<number, number>>();
  const reads = new Map<string, Map<number, number>>();
  const clock = { ms: 0 };
  const tally = (counter: typeof writes, id: string) => {
    const perSecond = counter.get(id) ?? new Map<number, number>();
    const second = Math.floor(clock.ms / 1000);
    perSecond.set(second, (perSecond.get(second) ?? 0) + 1);
    counter.set(id, perSecond);
  };
  const send = async (command: any) => {
    const { keyString } = await import('../../shared/db/key.ts');
    const input = command.input;
    if (input.RequestItems) {
      const [name, { Keys }] = Object.entries<any>(input.RequestItems)[0]!;
      const found = Keys.map((key: any) => {
        tally(reads, keyString(key));
        return items.get(keyString(key));
      }).filter(Boolean);
      return { Responses: { [name]: found } };
    }
    const id = keyString(input.Key);
    tally(writes, id);
    const item = items.get(id) ?? { ...input.Key };
    if (input.ConditionExpression) {
      // The peak's conditional SET: the value set is the value compared with.
      const value = Math.max(...Object.values<number>(input.ExpressionAttributeValues));
      if (item.peak !== undefined && item.peak >= value) {
        const old = input.ReturnValuesOnConditionCheckFailure === 'ALL_OLD';
        throw Object.assign(new Error('The conditional request failed'), {
          name: 'ConditionalCheckFailedException',
          ...(old ? { Item: { peak: { N: String(item.peak) } } } : {}),
        });
      }
      item.peak = value;
    } else {
      for (const name of Object.values<string>(input.ExpressionAttributeNames))
        if (name !== 'expires_at_epoch') item[name] = (item[name] ?? 0) + 1;
    }
    items.set(id, item);
    return {};
  };
  return { items, writes, reads, clock, send };
});

vi.mock('../../shared/db/client.ts', () => ({ db: { send: table.send } }));

const worstPerSecond = (counter: Map<string, Map<number, number>>, match: (id: string) => boolean) =>
  Math.max(...[...counter].filter(([id]) => match(id)).flatMap(([, perSecond]) => [...perSecond.values()]));

describe('viewer counters under 100,000 concurrent viewers', () => {
  it('keep every item written by opens and heartbeats well under 500 writes per second', async () => {
    const viewers = 100_000;
    const containers = 250; // ~3,333 requests/s × ~75 ms each
    const rampMs = 60_000; // viewers arrive over the first minute, then heartbeat every 30 s
    const endMs = 180_000;
    const beatMs = BUCKET_SECONDS * 1000;
    const start = Date.UTC(2026, 10, 22, 20, 0, 0);

    // Each warm container has its own module state (count and peak caches), as on Lambda.
    const modules: typeof import('../../shared/audience/viewer-counter.ts')[] = [];
    for (let c = 0; c < containers; c++) {
      vi.resetModules();
      modules.push(await import('../../shared/audience/viewer-counter.ts'));
    }

    const opensAt = Array.from({ length: viewers }, () => Math.random() * rampMs);
    const byPhase = [...opensAt.keys()].sort((a, b) => (opensAt[a]! % beatMs) - (opensAt[b]! % beatMs));
    const lastPeak = new Map<number, number>();
    const wrong: string[] = [];
    let highestCount = 0;
    let requests = 0;
    // Opens and heartbeats in time order, each served by a random container.
    for (let cycle = 0; cycle * beatMs < endMs; cycle++) {
      for (const v of byPhase) {
        const t = cycle * beatMs + (opensAt[v]! % beatMs);
        if (t < opensAt[v]! || t >= endMs) continue;
        table.clock.ms = t;
        const container = randomInt(containers);
        const counter = modules[container]!;
        const now = new Date(start + t);
        await counter.countPresence('ch_hot', DEVICE_TYPES[v % DEVICE_TYPES.length]!, now);
        const { current, peaks } = await counter.channelAudience('ch_hot', now);
        // Once everyone has joined, the last complete bucket holds every viewer exactly once.
        const expected = t >= rampMs + beatMs ? viewers : current.total;
        const previousPeak = lastPeak.get(container) ?? 0;
        if (current.total !== expected || peaks.today < current.total || peaks.allTime < peaks.today) {
          wrong.push(`${t} ms: ${current.total} watching, peaks ${peaks.today}/${peaks.allTime}`);
        }
        if (peaks.today < previousPeak)
          wrong.push(`${t} ms: container peak ${previousPeak} → ${peaks.today}`);
        lastPeak.set(container, peaks.today);
        highestCount = Math.max(highestCount, current.total);
        requests++;
      }
    }

    expect(wrong.slice(0, 5)).toEqual([]);
    const allTime = keyString(viewerPeakKey('ch_hot', 'all'));
    const today = keyString(viewerPeakKey('ch_hot', { day: '2026-11-22' }));
    const isPeak = (id: string) => id === allTime || id === today;
    const peakIds = [...table.writes.keys()].filter(isPeak);
    expect(peakIds.sort()).toEqual([allTime, today].sort());
    expect(table.items.get(allTime)?.peak).toBe(highestCount);
    expect(highestCount).toBeGreaterThan(viewers * 0.95);

    const shardWorst = worstPerSecond(table.writes, (id) => !isPeak(id));
    const peakWorst = worstPerSecond(table.writes, isPeak);
    const readWorst = worstPerSecond(table.reads, () => true);
    const worst = Math.max(shardWorst, peakWorst);
    console.info(
      `viewer counters: ${requests} opens/heartbeats over ${containers} containers, ` +
        `${table.writes.size} items written; worst writes/s per item: shard ${shardWorst}, ` +
        `peak ${peakWorst} (overall ${worst}); worst item reads/s ${readWorst}`,
    );
    // Every item written, in any one second of simulated time.
    expect(worst).toBeLessThan(500);
    // The shards do carry the load (the test is not vacuous): ~3,333 writes/s over 16 shards.
    expect(shardWorst).toBeGreaterThan((viewers / BUCKET_SECONDS / VIEWER_SHARDS) * 0.8);
    // A steady audience costs no peak writes at all: they only happen while it grows.
    const steadyPeakWrites = [...table.writes]
      .filter(([id]) => isPeak(id))
      .flatMap(([, perSecond]) => [...perSecond].filter(([second]) => second * 1000 >= rampMs + beatMs));
    expect(steadyPeakWrites).toEqual([]);
    // Eventually consistent reads cost half a unit: 3,000 reads/s would be half a partition's 3,000 RCU.
    expect(readWorst).toBeLessThan(3_000);
  }, 300_000);
});

describe("the watch open's audience read ahead (merge of issue 41's fewer phases with adaptive shards)", () => {
  const now = new Date(Date.UTC(2026, 10, 29, 20, 0, 5));

  it('is not kept when it covered fewer shards than the creator item gives: the count reads them all', async () => {
    vi.resetModules();
    const counter = await import('../../shared/audience/viewer-counter.ts');
    // A channel grown to 256 shards, two viewers counted on a shard above the first 16.
    await counter.countPresence('ch_grown', 'web', now, 256, 200);
    await counter.countPresence('ch_grown', 'ios', now, 256, 200);
    const ahead = await counter.readAudienceAhead('ch_grown', now); // this container knew nothing: 16
    ahead.keep();
    const { current } = await counter.channelAudience('ch_grown', now, { shards: 256 });
    expect(current.total).toBe(2);
  });

  it('is kept when it covered them, with the viewer the open counts', async () => {
    vi.resetModules();
    const counter = await import('../../shared/audience/viewer-counter.ts');
    await counter.countPresence('ch_small', 'web', now, 16, 3);
    const ahead = await counter.readAudienceAhead('ch_small', now);
    await counter.countPresence('ch_small', 'roku', now, 16, 4); // the open's own count
    ahead.keep('roku');
    const readsBefore = [...table.reads.values()].reduce(
      (n, s) => n + [...s.values()].reduce((a, b) => a + b, 0),
      0,
    );
    const { current } = await counter.channelAudience('ch_small', now, { shards: 16 });
    const readsAfter = [...table.reads.values()].reduce(
      (n, s) => n + [...s.values()].reduce((a, b) => a + b, 0),
      0,
    );
    expect(current.total).toBe(2);
    expect(current.byDevice.roku).toBe(1);
    expect(readsAfter).toBe(readsBefore); // answered from the read ahead
  });
});
