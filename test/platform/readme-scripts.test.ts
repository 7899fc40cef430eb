import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

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

  // The Node versions themselves: test/platform/readme.test.ts (the browser package's engines and the floor).
  it('lists each prerequisite: Node with npm 11, Java 17', () => {
    const section = readme.split('### Prerequisites')[1]?.split('\n### ')[0] ?? '';
    expect(section).toMatch(/Node [\d.]+ or later with npm 11/);
    expect(section).toContain('Java 17');
    expect(JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')).engines.node).toBe('>=20.19');
  });
});
