import type { PutEventsRequestEntry, PutEventsResultEntry } from '@aws-sdk/client-eventbridge';
import { describe, expect, it } from 'vitest';
import { EVENT_SOURCE, type PlatformEvent } from '../../shared/events/envelope.ts';
import { eventProblems, publishEvents, toEntry } from '../../shared/events/publish.ts';

const event = (n: number): PlatformEvent => ({
  id: `evt_${n}`,
  type: 'creator.live',
  version: '1',
  time: '2026-11-24T18:00:00.000Z',
  creator_id: 'cr_0001',
  data: {
    creator_id: 'cr_0001',
    slug: 'maya',
    name: 'Maya',
    channel_id: 'ch_0001',
    stream_id: `st-${n}`,
    title: 'Live',
    started_at: '2026-11-24T18:00:00.000Z',
  },
});
const events = (count: number) => Array.from({ length: count }, (_, n) => event(n));
const idOf = (entry: PutEventsRequestEntry) => (JSON.parse(entry.Detail ?? '{}') as PlatformEvent).id;

/** A PutEvents stand-in: records each call's ids; `fail(id, call)` decides an entry's failure. */
const fakePut = (fail: (id: string, call: number) => string | undefined | 'throw' = () => undefined) => {
  const calls: string[][] = [];
  const put = async (entries: PutEventsRequestEntry[]): Promise<PutEventsResultEntry[]> => {
    const call = calls.length;
    calls.push(entries.map(idOf));
    if (entries.some((e) => fail(idOf(e), call) === 'throw'))
      throw Object.assign(new Error('throttled'), { name: 'ThrottlingException' });
    return entries.map((e) => {
      const code = fail(idOf(e), call);
      return code ? { ErrorCode: code, ErrorMessage: 'no' } : { EventId: `eb-${idOf(e)}` };
    });
  };
  return { calls, put };
};

describe('the EventBridge form', () => {
  it('source, detail-type the type, detail the whole envelope, time the change', () => {
    const entry = toEntry(event(1), 'bus');
    expect(entry).toMatchObject({ EventBusName: 'bus', Source: EVENT_SOURCE, DetailType: 'creator.live' });
    expect(JSON.parse(entry.Detail ?? '')).toEqual(event(1));
    expect(entry.Time?.toISOString()).toBe('2026-11-24T18:00:00.000Z');
  });

  it('an event its schema refuses is named with the field', () => {
    expect(eventProblems(event(1))).toEqual([]);
    const broken = { ...event(1), data: { ...event(1).data, stream_id: 42 } };
    expect(eventProblems(broken)).toEqual([expect.stringContaining('data.stream_id')]);
    expect(eventProblems({ ...event(1), type: 'creator.exploded' as never })).not.toEqual([]);
  });
});

describe('publishEvents', () => {
  it('puts in order, at most 10 entries a call', async () => {
    const { calls, put } = fakePut();
    const report = await publishEvents(events(23), { busName: 'bus', put });
    expect(calls.map((c) => c.length)).toEqual([10, 10, 3]);
    expect(calls.flat()).toEqual(events(23).map((e) => e.id));
    expect(report).toEqual({ published: 23, failedEntries: 0, errors: [] });
  });

  it('retries only the entries that failed, and counts them', async () => {
    const { calls, put } = fakePut((id, call) =>
      call === 0 && (id === 'evt_2' || id === 'evt_5') ? 'InternalException' : undefined,
    );
    const report = await publishEvents(events(8), { busName: 'bus', put });
    expect(calls).toEqual([events(8).map((e) => e.id), ['evt_2', 'evt_5']]);
    expect(report).toMatchObject({
      published: 8,
      failedEntries: 2,
      errors: ['InternalException', 'InternalException'],
    });
    expect(report.firstUnpublished).toBeUndefined();
  });

  it('retries a call that threw', async () => {
    const { calls, put } = fakePut((_, call) => (call === 0 ? 'throw' : undefined));
    const report = await publishEvents(events(3), { busName: 'bus', put });
    expect(calls).toHaveLength(2);
    expect(report).toMatchObject({ published: 3, failedEntries: 3, errors: ['ThrottlingException'] });
  });

  it('stops at the first chunk still failing after 3 calls and names its first unpublished event', async () => {
    const { calls, put } = fakePut((id) =>
      id === 'evt_12' || id === 'evt_14' ? 'InternalException' : undefined,
    );
    const report = await publishEvents(events(25), { busName: 'bus', put });
    expect(report.firstUnpublished).toBe(12);
    expect(report.published).toBe(18);
    // chunk 1, chunk 2, its two retries of evt_12 and evt_14; chunk 3 is never put.
    expect(calls.map((c) => c.length)).toEqual([10, 10, 2, 2]);
  });
});
