/**
 * Architecture counts of issue 35 (quoted before and after in docs/architecture.md):
 * `npx tsx scripts/metrics/architecture.ts` (add `--list` for the files behind each count).
 *
 * Text heuristics over the sources, not a type-checked analysis; each count says what it matches.
 * "Entity modules" are the files named `*-repository.ts` (docs/conventions.md "Data"); `shared/db`
 * is the table plumbing. Everything else is "outside".
 */
import {
  folderCycles,
  folderImports,
  importGraph,
  mutualPairs,
  src,
  upwardImports,
  walk,
} from './import-graph.ts';

const list = process.argv.includes('--list');

const code = ['shared', 'functions', 'scripts', 'infra'].flatMap(walk);
// test/db tests shared/db itself (expressions are its subject there).
const tests = walk('test').filter((f) => !f.startsWith('test/db/'));

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

// 4. Folder pairs under shared/ importing each other, longer cycles, and imports of a higher layer
//    (scripts/metrics/layers.ts; test/architecture/layers.test.ts keeps all three at zero).
const imports = folderImports();
report('folder pairs under shared/ importing each other', mutualPairs(imports));
report(
  'folder cycles under shared/ (any length)',
  folderCycles(imports).map((c) => c.join(' -> ')),
);
report(
  'imports of a folder of a higher layer',
  upwardImports(imports).map((i) => `${i.file} -> ${i.target}`),
);

// 5. Files in the import graph of the watch and heartbeat handlers (relative imports, transitively).
for (const handler of ['functions/live/start-watch-session.ts', 'functions/live/send-heartbeat.ts']) {
  report(`files in the import graph of ${handler}`, importGraph(handler));
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
