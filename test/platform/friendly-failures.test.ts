import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * Commands a newcomer runs before anything exists: they say what to run first, in a line or two,
 * and exit non-zero; no stack trace.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const empty = mkdtempSync(join(tmpdir(), 'friendly-'));
afterAll(() => rmSync(empty, { recursive: true, force: true }));

/** Runs a package script's entry the way its npm script does (`tsx <file>`). */
const run = (file: string, args: string[], env: Record<string, string>) => {
  const result = spawnSync(process.execPath, ['--import', 'tsx', file, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}`.trim() };
};

const expectFriendly = (output: string) => {
  expect(output.split('\n').length).toBeLessThanOrEqual(2);
  expect(output).not.toMatch(/^\s+at /m);
  expect(output).not.toMatch(/Error:|ENOENT|node:internal/);
};

describe('npm run bench:check without a benchmark report', () => {
  it('names the report it looked for and the command that makes one, exit 2', () => {
    const { status, output } = run('bench/check.ts', [], { BENCH_DIR: join(empty, 'bench') });
    expect(status).toBe(2);
    expect(output).toContain(join(empty, 'bench', 'report.json'));
    expect(output).toContain('npm run bench');
    expectFriendly(output);
  });
});

describe('npm run analytics without events', () => {
  it('without arguments: prints its usage (the commands, metrics and dimensions), exit 0', () => {
    const { status, output } = run('analytics/run.ts', [], { ANALYTICS_DIR: join(empty, 'analytics') });
    expect(status).toBe(0);
    expect(output).toContain('npm run analytics -- report');
    expect(output).toContain('Dimensions (--by)');
  });

  it.each([[['report']], [['views']]])('with arguments %j: says how to get events, exit 1', (args) => {
    const { status, output } = run('analytics/run.ts', args, { ANALYTICS_DIR: join(empty, 'analytics') });
    expect(status).toBe(1);
    expect(output).toContain(`No analytics events under ${join(empty, 'analytics')}`);
    expect(output).toContain('npm start');
    expectFriendly(output);
  });

  it('a folder with no event files counts as no events', () => {
    const dir = join(empty, 'analytics-empty', 'family=video', 'dt=2026-11-23', 'hour=10');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'notes.txt'), 'not events');
    const { status, output } = run('analytics/run.ts', ['report'], {
      ANALYTICS_DIR: join(empty, 'analytics-empty'),
    });
    expect(status).toBe(1);
    expectFriendly(output);
  });

  it('`list` names the metrics whether or not there are events', () => {
    const { status, output } = run('analytics/run.ts', ['list'], { ANALYTICS_DIR: join(empty, 'analytics') });
    expect(status).toBe(0);
    expect(output.split('\n')).toContain('watch_time');
  });
});
