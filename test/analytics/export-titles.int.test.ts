import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The title dimension's backfill (docs/analytics.md, "Dimensions"): `npm run analytics --
 * export-titles --from-table` reads the seeded table (DynamoDB Local, as the global setup loaded
 * it) and writes one row per creator, channel, show and episode.
 */
const dir = mkdtempSync(join(tmpdir(), 'analytics-titles-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('export-titles --from-table', () => {
  it("writes the table's catalogue as title rows with names, shows and categories", async () => {
    const { ANALYTICS_STREAM_NAME: _, ...env } = process.env;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'analytics/run.ts', 'export-titles', '--from-table'],
      { cwd: resolve(import.meta.dirname, '../..'), env: { ...env, ANALYTICS_DIR: dir } },
    );
    const written = Number(stdout.match(/wrote (\d+) title rows/)?.[1]);
    const files = readdirSync(join(dir, 'family=catalog'), { recursive: true, encoding: 'utf8' }).filter(
      (f) => f.endsWith('.ndjson'),
    );
    const rows = files.flatMap((f) =>
      readFileSync(join(dir, 'family=catalog', f), 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line)),
    );
    expect(rows).toHaveLength(written);
    const kinds = new Map<string, number>();
    for (const row of rows) kinds.set(row.kind, (kinds.get(row.kind) ?? 0) + 1);
    // The seed: every creator has a channel; shows and episodes belong to creators.
    expect(kinds.get('creator')).toBeGreaterThan(10);
    expect(kinds.get('channel')).toBe(kinds.get('creator'));
    expect(kinds.get('episode')).toBeGreaterThan(kinds.get('show')!);
    const episode = rows.find((r) => r.kind === 'episode');
    const show = rows.find((r) => r.id === episode.show_id);
    expect(show).toMatchObject({ kind: 'show', title: expect.any(String), category: expect.any(String) });
    expect(rows.find((r) => r.id === episode.creator_id)).toMatchObject({ kind: 'creator' });
    expect(episode).toMatchObject({ family: 'catalog', type: 'title', title: expect.any(String) });
  }, 120_000); // a tsx process reading the whole seeded table: 12 s alone, 30 s+ beside another worker under load
});
