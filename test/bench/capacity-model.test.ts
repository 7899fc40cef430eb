import { describe, expect, it } from 'vitest';
import {
  type Behaviour,
  concurrencyOf,
  keyLoads,
  type OpProfile,
  partitionUse,
  phasesOf,
  tableUnits,
} from '../../bench/capacity-model.ts';

const behaviour: Behaviour = {
  heartbeatSeconds: 30,
  bucketSeconds: 180,
  rampSeconds: 300,
  reactionsPerViewerSecond: 0.1,
  analyticsPerViewerSecond: 1 / 30,
  reuseSeconds: 5,
};

/** A counted heartbeat as measured: a session write, one viewer shard of 16, the creator read (reused). */
const ops: Record<string, OpProfile> = {
  'heartbeat (counted)': {
    op: 'heartbeat (counted)',
    ms: 30,
    memoryMb: 256,
    firehoseRecords: 0,
    firehoseBytes: 0,
    families: {
      'table:SESSION#<uuid>': { rru: 0.5, wru: 1, spread: 1, perViewer: true },
      'table:VIEWERS#ch_1#<n>#<n>': { rru: 0, wru: 1, spread: 16, perViewer: false },
      'table:CREATOR#cr_1': { rru: 0, wru: 0, spread: 1, perViewer: false, coldRru: 0.5 },
    },
  },
};

describe('the capacity model (bench/capacity-model.ts)', () => {
  it('puts every first beat of a bucket within one heartbeat interval, with the arrivals', () => {
    const phases = phasesOf(1_200_000, behaviour);
    expect(phases['bucket start']).toMatchObject({
      open: 4_000,
      'heartbeat (counted)': 40_000,
      reaction: 120_000,
    });
    expect(phases.departure).toMatchObject({ delete: 4_000, heartbeat: 40_000 });
  });

  it('spreads a shared family over its shards and gives a per-viewer key one viewer’s share', () => {
    const viewers = 480_000;
    const rates = { 'heartbeat (counted)': viewers / 30 }; // 16,000 a second
    const loads = Object.fromEntries(keyLoads(rates, ops, viewers, behaviour).map((l) => [l.family, l]));
    // 16,000 writes a second over 16 shards.
    expect(loads['table:VIEWERS#ch_1#<n>#<n>']!.wcu).toBeCloseTo(1_000, 6);
    expect(partitionUse(loads['table:VIEWERS#ch_1#<n>#<n>']!)).toBeCloseTo(1, 6);
    // One session: 16,000 / 480,000 = 1/30 of a write a second.
    expect(loads['table:SESSION#<uuid>']!.wcu).toBeCloseTo(1 / 30, 9);
    // The creator item: 480 containers (16,000/s × 30 ms) rereading it every 5 s = 96 reads of 0.5.
    expect(concurrencyOf(rates, ops)['heartbeat (counted)']).toBeCloseTo(480, 6);
    expect(loads['table:CREATOR#cr_1']!.rcu).toBeCloseTo(96 * 0.5, 6);
    // Hottest first: the shards at a full partition, the creator at 1.6% of one.
    expect(keyLoads(rates, ops, viewers, behaviour)[0]!.family).toBe('table:VIEWERS#ch_1#<n>#<n>');
  });

  it('bounds reused reads by the requests themselves when there are few', () => {
    const rates = { 'heartbeat (counted)': 10 };
    const creator = keyLoads(rates, ops, 300, behaviour).find((l) => l.family === 'table:CREATOR#cr_1')!;
    // 0.3 containers are still one container, rereading every 5 s: 0.2 reads of 0.5 a second, not 10.
    expect(creator.rcu).toBeCloseTo(0.2 * 0.5, 9);
  });

  it('sums the table over every key and every channel', () => {
    const rates = { 'heartbeat (counted)': 16_000 };
    const one = tableUnits(rates, ops, behaviour, 1);
    expect(one.wru).toBeCloseTo(32_000, 6);
    // Reads: the session's 8,000 plus the creator's 48 (480 containers / 5 s × 0.5).
    expect(one.rru).toBeCloseTo(8_000 + 48, 6);
    // Over 1,000 channels every container rereads each channel's creator: bounded by the requests (16,000 × 0.5).
    expect(tableUnits(rates, ops, behaviour, 1_000).rru).toBeCloseTo(8_000 + 8_000, 6);
  });
});
