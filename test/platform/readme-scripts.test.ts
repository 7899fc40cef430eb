import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PAY_ACTIONS } from '../../scripts/local/stripe/control.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const readme = readFileSync(resolve(ROOT, 'README.md'), 'utf8');
const scripts = Object.keys(JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')).scripts);

/** The script names of the README's "npm scripts" table (`npm start`, `npm run seed`, `postinstall`...). */
const documented = (): string[] => {
  const section = readme.split('### npm scripts')[1]?.split('\n## ')[0] ?? '';
  return [...section.matchAll(/^\| `(?:npm (?:run )?)?([\w:-]+)`/gm)].map((m) => m[1]!);
};

describe('README npm scripts table', () => {
  it('lists every script of package.json, and only those', () => {
    expect(documented().sort()).toEqual([...scripts].sort());
  });

  /** The README row of `npm run <script>`. */
  const row = (script: string) =>
    readme.split('\n').find((line) => line.startsWith(`| \`npm run ${script}\` |`)) ?? '';
  const source = (file: string) => readFileSync(resolve(ROOT, file), 'utf8');

  // A platform engineer learns a tool's commands from its row: one the row leaves out is one they never find.
  it.each([
    // The operator's usage lines, `npm run operator -- <command>`.
    [
      'operator',
      [...source('scripts/operator.ts').matchAll(/npm run operator -- ([a-z-]+)/g)].map((m) => m[1]!),
    ],
    ['broadcast', /broadcast -- <([a-z|]+)>/.exec(source('scripts/broadcast.ts'))?.[1]?.split('|') ?? []],
    ['pay', [...PAY_ACTIONS, 'apple', 'google']],
  ])('names every command of npm run %s', (script, commands) => {
    expect(commands.length).toBeGreaterThan(1);
    const missing = [...new Set(commands)].filter(
      (command) => !new RegExp(`\`(npm run ${script} -- )?${command}[\` ]`).test(row(script)),
    );
    expect(missing).toEqual([]);
  });

  // The Node versions themselves: test/platform/readme.test.ts (the browser package's engines and the floor).
  it('lists each prerequisite: Node with npm 11, Java 17', () => {
    const section = readme.split('### Prerequisites')[1]?.split('\n### ')[0] ?? '';
    expect(section).toMatch(/Node [\d.]+ or later with npm 11/);
    expect(section).toContain('Java 17');
    expect(JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')).engines.node).toBe('>=20.19');
  });
});
