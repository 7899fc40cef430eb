import { appendFile, mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Sink } from '../../shared/analytics/sink.ts';

/** Local sink: appends NDJSON under `<dir>/family=<family>/dt=YYYY-MM-DD/hour=HH/events.ndjson`. */
export const fileSink = (dir: () => string): Sink => ({
  put: async (records) => {
    const files = new Map<string, string>();
    for (const record of records) {
      const at = record.received_at;
      const file = join(
        dir(),
        `family=${record.family}`,
        `dt=${at.slice(0, 10)}`,
        `hour=${at.slice(11, 13)}`,
        'events.ndjson',
      );
      files.set(file, `${files.get(file) ?? ''}${JSON.stringify(record)}\n`);
    }
    for (const [file, text] of files) {
      await mkdir(resolve(file, '..'), { recursive: true });
      await appendFile(file, text);
    }
  },
});
