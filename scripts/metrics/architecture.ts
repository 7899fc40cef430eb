/**
 * Architecture counts of issue 35 (quoted before and after in docs/architecture.md):
 * `npx tsx scripts/metrics/architecture.ts` (add `--list` for the files behind each count).
 *
 * Text heuristics over the sources, not a type-checked analysis; each count says what it matches.
 * "Entity modules" are the files named `*-repository.ts` (docs/conventions.md "Data"); `shared/db`
 * is the table plumbing. Everything else is "outside".
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');
const list = process.argv.includes('--list');

const walk = (dir: string): string[] =>
  readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) return name === 'node_modules' ? [] : walk(path);
    return name.endsWith('.ts') ? [path] : [];
  });

const code = ['shared', 'functions', 'scripts', 'infra'].flatMap(walk);
// test/db tests shared/db itself (expressions are its subject there).
const tests = walk('test').filter((f) => !f.startsWith('test/db/'));
const text = new Map([...code, ...tests].map((f) => [f, readFileSync(join(root, f), 'utf8')]));
const src = (f: string) => text.get(f) ?? '';

const isEntity = (f: string) => f.endsWith('-repository.ts');
const isDb = (f: string) => f.startsWith('shared/db/');
const outside = (f: string) => !isEntity(f) && !isDb(f) && f !== 'scripts/metrics/architecture.ts';

const count = (s: string, re: RegExp) => (s.match(re) ?? []).length;
const report = (label: string, files: Map<string, number> | string[]) => {
  const entries = Array.isArray(files) ? files.map((f) => [f, 1] as const) : [...files.entries()];
  const total = entries.reduce((sum, [, n]) => sum + n, 0);
  const shown = Array.isArray(files) ? `${total}` : `${total} in ${entries.length} files`;
  console.log(`${label}: ${shown}`);
  if (list) for (const [f, n] of entries) console.log(`    ${f}${Array.isArray(files) ? '' : ` (${n})`}`);
};
const perFile = (files: string[], re: RegExp) =>
  new Map(files.map((f) => [f, count(src(f), re)] as const).filter(([, n]) => n > 0));

// 1. Modules writing the creator item outside its entity module: a raw write (UpdateExpression,
//    Put, Delete) in a file that names the creator's key (creatorKey or `CREATOR#…`/'PROFILE').
const namesCreatorKey = (s: string) =>
  /creator(Key|Item)\(/.test(s) || /CREATOR#\$\{[^}]*\}`,\s*SK:\s*'PROFILE'/.test(s);
const rawWrite = (s: string) =>
  /UpdateExpression|new (Put|Update|Delete)Command|\b(Put|Update|Delete):\s*\{/.test(s);
const creatorWriters = code.filter(
  (f) =>
    f !== 'shared/creators/creator-repository.ts' && !isDb(f) && namesCreatorKey(src(f)) && rawWrite(src(f)),
);
report('modules writing the creator item outside creators/creator-repository.ts', creatorWriters);

// 2. Key literals outside entity modules and shared/db: key attribute names (PK, SK, GSInPK,
//    GSInSK) and key prefixes (`CREATOR#${…}`, 'PROFILE'-style sort keys are not counted).
const keyAttr = /\b(GSI\d)?(PK|SK)\b(?=\s*[:=,)}]|['"`])|['"`](GSI\d)?(PK|SK)['"`]/g;
const keyPrefix = /[`'"][A-Z][A-Z_]*#(\$\{|[`'"])/g;
report(
  'PK/SK attribute literals outside entity modules and shared/db (code)',
  perFile(code.filter(outside), keyAttr),
);
report('PK/SK attribute literals in tests', perFile(tests, keyAttr));
report(
  'key prefix literals (`X#<id>`) outside entity modules and shared/db (code)',
  perFile(code.filter(outside), keyPrefix),
);
report('key prefix literals in tests', perFile(tests, keyPrefix));

// 3. UpdateExpression written outside entity modules and shared/db.
report(
  'UpdateExpression outside entity modules and shared/db (code)',
  perFile(code.filter(outside), /UpdateExpression/g),
);
report('UpdateExpression in tests', perFile(tests, /UpdateExpression/g));

// 4. Folder pairs under shared/ importing each other.
const importRe = /(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;
const importsOf = (f: string): string[] =>
  [...src(f).matchAll(importRe)].map((m) => relative(root, resolve(root, dirname(f), m[1] ?? m[2]!)));
const folderOf = (f: string) =>
  f.startsWith('shared/') && f.split('/').length > 2 ? f.split('/')[1] : undefined;
const edges = new Set<string>();
for (const f of code.filter((f) => folderOf(f))) {
  for (const target of importsOf(f)) {
    const [from, to] = [folderOf(f), folderOf(target)];
    if (from && to && from !== to) edges.add(`${from}->${to}`);
  }
}
const pairs = [...edges]
  .map((e) => e.split('->') as [string, string])
  .filter(([a, b]) => a < b && edges.has(`${b}->${a}`))
  .map(([a, b]) => `${a}-${b}`);
report('folder pairs under shared/ importing each other', pairs.sort());

// 5. Files in the import graph of the watch and heartbeat handlers (relative imports, transitively).
const graph = (entry: string) => {
  const seen = new Set<string>();
  const visit = (f: string) => {
    if (seen.has(f) || !text.has(f)) return;
    seen.add(f);
    for (const t of importsOf(f)) visit(t);
  };
  visit(entry);
  return [...seen].sort();
};
for (const handler of ['functions/live/start-watch-session.ts', 'functions/live/send-heartbeat.ts']) {
  report(`files in the import graph of ${handler}`, graph(handler));
}

// 6. The conditional single-item write caught by hand: a check of ConditionalCheckFailed on a
//    caught error outside shared/db (isConditionalCheckFailed(...) or a cancellation code compared).
report(
  'conditional-write checks on a caught error outside shared/db',
  perFile(
    code.filter((f) => !isDb(f)),
    /isConditionalCheckFailed\(error\)|=== 'ConditionalCheckFailed'|includes\('ConditionalCheckFailed'\)/g,
  ),
);
