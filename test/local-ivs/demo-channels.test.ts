import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Broadcaster } from '../../scripts/local/ivs/broadcaster.ts';
import { type DemoChannel, startDemoBroadcasts } from '../../scripts/local/ivs/demo-channels.ts';

/**
 * `npm start`'s output: the IVS event function's INFO line per replayed demo start (three
 * documents for each of the ~70 seed-live channels) is left out, as docs/local-ivs.md says; any
 * other line, and anything written outside the replayed starts, is printed. The lines are
 * written as shared/observability writes them: JSON straight onto process.stdout (INFO).
 */
describe('startDemoBroadcasts', () => {
  afterEach(() => vi.restoreAllMocks());

  it('leaves the replayed starts’ INFO lines out of stdout and keeps the rest', async () => {
    const written: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    const line = (level: string, message: string) => `${JSON.stringify({ level, message })}\n`;
    const broadcaster = {
      start: async () => {
        process.stdout.write(line('INFO', 'ivs event'));
        process.stdout.write('a line of another kind\n');
        return {} as never;
      },
    } as unknown as Broadcaster;
    const channel = (n: number) =>
      ({
        creator: { live: { started_at: '2026-11-30T10:00:00.000Z' } },
        channel: { channel_arn: `arn:aws:ivs:us-east-1:000000000000:channel/demo${n}` },
      }) as unknown as DemoChannel;

    await startDemoBroadcasts(broadcaster, [channel(1), channel(2)]);
    process.stdout.write(line('INFO', 'after the start-up'));

    expect(written).toEqual([
      'a line of another kind\n',
      'a line of another kind\n',
      line('INFO', 'after the start-up'),
    ]);
  });
});
