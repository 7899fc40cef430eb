import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { tableName } from '../../shared/db/table.ts';

/**
 * `npm run rebuild-views -- --dry-run` from a workstation (docs/operations.md "The rebuild"): its
 * one line names every count the upgrade notes tell the operator to read before repairing, the
 * show profiles' and the earning months' included.
 */
describe('npm run rebuild-views', () => {
  it('prints the counts the upgrade notes name, changing nothing with --dry-run', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'scripts/rebuild-views.ts', '--dry-run'],
      {
        cwd: resolve(import.meta.dirname, '../..'),
        env: {
          ...process.env,
          TABLE_NAME: tableName(),
          AWS_REGION: process.env.AWS_REGION ?? 'us-east-1',
        },
      },
    );
    expect(stdout).toMatch(/^would rebuild: \d+ source items, \d+ view items; \d+ to put, \d+ to delete, /);
    expect(stdout).toMatch(/\d+ show profiles \(GSI1 key, episode tally\) to repair/);
    expect(stdout).toMatch(/\d+ earning months \(monthly totals\) to set/);
  }, 120_000);
});
