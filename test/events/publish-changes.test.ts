import type { PutEventsRequestEntry } from '@aws-sdk/client-eventbridge';
import { describe, expect, it } from 'vitest';
import type { PlatformEvent } from '../../shared/events/envelope.ts';
import { publishChanges } from '../../shared/events/publish-changes.ts';
import { change, creator, live, program, show } from './records.ts';

const typeOf = (entry: PutEventsRequestEntry) => (JSON.parse(entry.Detail ?? '{}') as PlatformEvent).type;

describe('publishChanges (one batch of the stream)', () => {
  it('puts every event in record order and reports no failure', async () => {
    const put: string[] = [];
    const records = [
      change(undefined, show()),
      change(creator(), creator({ live })),
      change(undefined, program()),
    ];
    const result = await publishChanges(records, {
      busName: 'bus',
      put: async (entries) => {
        put.push(...entries.map(typeOf));
        return entries.map(() => ({ EventId: 'x' }));
      },
    });
    expect(result).toEqual({ batchItemFailures: [] });
    expect(put).toEqual(['show.published', 'creator.live', 'program.scheduled']);
  });

  it('reports the record of the first event still unpublished, so the batch is redelivered from there', async () => {
    const records = [
      change(undefined, show()),
      change(creator(), creator({ live })),
      change(undefined, program()),
    ];
    const result = await publishChanges(records, {
      busName: 'bus',
      put: async (entries) =>
        entries.map((e) =>
          typeOf(e) === 'creator.live' ? { ErrorCode: 'InternalException' } : { EventId: 'x' },
        ),
    });
    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: records[1]?.dynamodb?.SequenceNumber }] });
  });

  it('skips (and never blocks on) an event its schema refuses', async () => {
    const put: string[] = [];
    const noTitle = { stream_id: 'st-x', started_at: '2026-11-24T18:00:05.000Z' };
    const records = [change(creator(), creator({ live: noTitle })), change(undefined, show())];
    const result = await publishChanges(records, {
      busName: 'bus',
      put: async (entries) => {
        put.push(...entries.map(typeOf));
        return entries.map(() => ({ EventId: 'x' }));
      },
    });
    expect(result).toEqual({ batchItemFailures: [] });
    expect(put).toEqual(['show.published']);
  });
});
