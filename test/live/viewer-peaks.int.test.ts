import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { db } from '../../shared/db/client.ts';
import { channelAudience, countPresence, recordPeak } from '../../shared/audience/viewer-counter.ts';
import { type PeakOf, raisePeak } from '../../shared/audience/viewer-counter-repository.ts';

afterEach(() => vi.restoreAllMocks());

/** Another container raising the stored peaks, behind this container's back. */
const raiseElsewhere = (channelId: string, peak: PeakOf, value: number) => raisePeak(channelId, peak, value);

describe('viewer peaks against DynamoDB Local', () => {
  it('are written once per new high and learned from a failed write without a read', async () => {
    const channel = `ch_peaks_${randomUUID()}`;
    const now = new Date();
    const day = { day: now.toISOString().slice(0, 10) };
    await countPresence(channel, 'web', now);
    await countPresence(channel, 'roku', now);
    const first = await channelAudience(channel, now);
    expect(first.current.total).toBe(2);
    expect(first.peaks).toEqual({ today: 2, allTime: 2 });

    await raiseElsewhere(channel, day, 40);
    await raiseElsewhere(channel, 'all', 90);
    const send = vi.spyOn(db, 'send');
    // Above what this container knows (2): one conditional write per item, both refused; the
    // stored peaks come back on the error (ALL_OLD), not from a read.
    expect(await recordPeak(channel, 3, now)).toEqual({ today: 40, allTime: 90 });
    expect(send).toHaveBeenCalledTimes(2);
    expect(send.mock.calls.map(([command]) => command.constructor.name)).toEqual([
      'UpdateCommand',
      'UpdateCommand',
    ]);
    // Now known: a lower or equal count costs nothing and still reports the peaks.
    expect(await recordPeak(channel, 40, now)).toEqual({ today: 40, allTime: 90 });
    expect(send).toHaveBeenCalledTimes(2);
    // A new high is written.
    expect(await recordPeak(channel, 95, now)).toEqual({ today: 95, allTime: 95 });
    expect(send).toHaveBeenCalledTimes(4);
  });
});
