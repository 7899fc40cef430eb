/**
 * Runs integration test files at chosen instants, one vitest run per instant with TEST_NOW set
 * (test/support/shifted-clock.ts: the seed and every clock of the run start there), one after the
 * other, and prints which tests failed at which instant (docs/conventions.md "Tests at chosen
 * instants"). Not part of `npm test`: a run per instant costs the platform's start (~30 s) and the
 * files' own time.
 *
 *   npx tsx scripts/time-sweep.ts [--at <ISO>[,<ISO>...]] <test files...>
 *
 * Without --at: TRICKY_STARTS below (14 instants).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';

/**
 * Seed instants at the edges a run at the wrong moment meets: UTC day, month and year ends, leap
 * days, daylight-saving changes (New York, London, Lord Howe's 30 minutes), the midnights of
 * Kathmandu (+05:45), Chatham (+12:45/+13:45), Kiritimati (+14) and Niue (−11), and the instants
 * whose "seed + 10 h 07 min 30 s" (test/epg/epg.int.test.ts's `now`) falls just before a Kathmandu
 * or Chatham midnight.
 */
export const TRICKY_STARTS = [
  '2026-12-31T23:50:00Z', // UTC year end; Niue's 12:50 on Dec 31
  '2028-02-29T23:55:00Z', // leap day's end (UTC); Kiritimati already on Mar 1
  '2027-02-28T18:05:00Z', // 10 min before Kathmandu's Mar 1
  '2027-03-14T06:55:00Z', // 5 min before New York springs forward
  '2027-10-31T00:55:00Z', // 5 min before London falls back
  '2027-04-03T14:55:00Z', // 5 min before Lord Howe's 30-minute fall back
  '2027-06-30T09:55:00Z', // 5 min before Kiritimati's Jul 1; Chatham 22:40 (+12:45)
  '2027-01-30T23:50:00Z', // + 10 h 07 min 30 s = 09:57:30Z: 17.5 min before Chatham's Feb 1 (+13:45), 2.5 before Kiritimati's
  '2026-12-31T00:10:00Z', // + 10 h 07 min 30 s = 10:17:30Z, 2.5 min past Chatham's Jan 1 (10:15Z) and Kiritimati's (10:00Z)
  '2027-05-31T07:50:00Z', // + 10 h 07 min 30 s = 17:57:30Z, 17.5 min before Kathmandu's Jun 1
  '2027-03-28T00:50:00Z', // 10 min before London springs forward; New York already on DST
  '2027-11-07T05:55:00Z', // 5 min before New York falls back
  '2027-04-02T14:00:00Z', // + 1 day 10 h 07 min 30 s is on Chatham's Apr 4 (25 h): its 03:45 → 02:45 in a 4-hour guide
  '2027-04-03T02:00:00Z', // + 10 h 07 min 30 s is on Chatham's 25-hour Apr 4
];

const args = process.argv.slice(2);
const atIndex = args.indexOf('--at');
const starts = atIndex >= 0 ? args[atIndex + 1]!.split(',') : TRICKY_STARTS;
const files = atIndex >= 0 ? args.filter((_, i) => i !== atIndex && i !== atIndex + 1) : args;
if (files.length === 0) {
  console.error('usage: npx tsx scripts/time-sweep.ts [--at <ISO>[,<ISO>...]] <test files...>');
  process.exit(2);
}

type Report = {
  numFailedTests: number;
  numPassedTests: number;
  testResults: {
    name: string;
    message?: string;
    assertionResults: { fullName: string; status: string; failureMessages: string[] }[];
  }[];
};

mkdirSync('.local/time-sweep', { recursive: true });
const summary: string[] = [];
for (const at of starts) {
  const out = `.local/time-sweep/${at.replace(/[:.]/g, '')}.json`;
  const started = Date.now();
  const run = spawnSync(
    'npx',
    ['vitest', 'run', '--reporter=dot', '--reporter=json', `--outputFile.json=${out}`, ...files],
    {
      env: { ...process.env, TEST_NOW: at },
      encoding: 'utf8',
    },
  );
  const seconds = Math.round((Date.now() - started) / 1000);
  let report: Report;
  try {
    report = JSON.parse(readFileSync(out, 'utf8')) as Report;
  } catch {
    summary.push(
      `${at}: no report (exit ${run.status}, ${seconds} s)\n${run.stdout.slice(-2000)}${run.stderr.slice(-2000)}`,
    );
    console.log(summary.at(-1));
    continue;
  }
  const failures = report.testResults.flatMap((file) => [
    ...(file.message ? [`  ${file.name}: ${file.message.split('\n')[0]}`] : []),
    ...file.assertionResults
      .filter((t) => t.status === 'failed')
      .map(
        (t) =>
          `  ${t.fullName}\n      ${(t.failureMessages[0] ?? '').split('\n').slice(0, 3).join('\n      ')}`,
      ),
  ]);
  summary.push(
    `${at}: ${report.numPassedTests} passed, ${report.numFailedTests} failed (exit ${run.status}, ${seconds} s)${failures.length > 0 ? `\n${failures.join('\n')}` : ''}`,
  );
  console.log(summary.at(-1));
}
console.log(`\n${summary.join('\n')}`);
process.exit(summary.some((line) => !/: \d+ passed, 0 failed \(exit 0/.test(line)) ? 1 : 0);
