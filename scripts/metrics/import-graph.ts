/**
 * The repository's relative-import graph, read from the sources as text (no type checking):
 * the counts of scripts/metrics/architecture.ts and the layering check
 * (test/architecture/layers.test.ts) read the same graph.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { LAYERS, type Layer } from './layers.ts';

/** The repository root. */
export const root = resolve(import.meta.dirname, '../..');

/** The `.ts` files under `dir` (repository-relative), node_modules left out. */
export const walk = (dir: string): string[] =>
  readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) return name === 'node_modules' ? [] : walk(path);
    return name.endsWith('.ts') ? [path] : [];
  });

const texts = new Map<string, string>();
/** A file's text (read once). */
export const src = (f: string): string => {
  let text = texts.get(f);
  if (text === undefined) {
    text = readFileSync(join(root, f), 'utf8');
    texts.set(f, text);
  }
  return text;
};

const importRe = /(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;

/** The files `f` imports by relative path (static, re-exports and dynamic `import()`), repository-relative. */
export const importsOf = (f: string): string[] =>
  [...src(f).matchAll(importRe)].map((m) => relative(root, resolve(root, dirname(f), m[1] ?? m[2]!)));

/** The folder under shared/ a file belongs to (`shared/<folder>/…`); undefined for shared/*.ts and other trees. */
export const folderOf = (f: string): string | undefined =>
  f.startsWith('shared/') && f.split('/').length > 2 ? f.split('/')[1] : undefined;

/** Every import from one shared/ folder into another: `from`, `to` and the file that makes it. */
export interface FolderImport {
  from: string;
  to: string;
  file: string;
  target: string;
}

/** The imports between shared/ folders. */
export const folderImports = (): FolderImport[] =>
  walk('shared').flatMap((file) =>
    importsOf(file).flatMap((target) => {
      const [from, to] = [folderOf(file), folderOf(target)];
      return from && to && from !== to ? [{ from, to, file, target }] : [];
    }),
  );

/** Folder pairs under shared/ that import each other (`a-b`, a before b). */
export const mutualPairs = (imports: readonly FolderImport[] = folderImports()): string[] => {
  const edges = new Set(imports.map((i) => `${i.from}->${i.to}`));
  return [...edges]
    .map((e) => e.split('->') as [string, string])
    .filter(([a, b]) => a < b && edges.has(`${b}->${a}`))
    .map(([a, b]) => `${a}-${b}`)
    .sort();
};

/** The folder cycles under shared/ (each as the folders on it), longer than a pair included. */
export const folderCycles = (imports: readonly FolderImport[] = folderImports()): string[][] => {
  const deps = new Map<string, Set<string>>();
  for (const i of imports) deps.set(i.from, (deps.get(i.from) ?? new Set()).add(i.to));
  const cycles: string[][] = [];
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (n: string) => {
    if (done.has(n)) return;
    const at = path.indexOf(n);
    if (at >= 0) {
      cycles.push(path.slice(at));
      return;
    }
    path.push(n);
    for (const d of deps.get(n) ?? []) visit(d);
    path.pop();
    done.add(n);
  };
  for (const n of [...deps.keys()].sort()) visit(n);
  return cycles;
};

/** The layer of a shared/ folder (undefined for a folder LAYERS does not place). */
export const layerOf = (folder: string): Layer | undefined =>
  (Object.keys(LAYERS) as Layer[]).find((layer) => (LAYERS[layer] as readonly string[]).includes(folder));

const rank = (layer: Layer) => Object.keys(LAYERS).indexOf(layer);

/** Imports from a shared/ folder into a folder of a higher layer (what the layering forbids). */
export const upwardImports = (imports: readonly FolderImport[] = folderImports()): FolderImport[] =>
  imports.filter((i) => {
    const [from, to] = [layerOf(i.from), layerOf(i.to)];
    return from !== undefined && to !== undefined && rank(to) > rank(from);
  });

/** The folders under shared/ that LAYERS does not place. */
export const unplacedFolders = (): string[] =>
  [...new Set(walk('shared').map(folderOf))].filter((f): f is string => !!f && !layerOf(f)).sort();

/** The files in the import graph of `entry` (relative imports, transitively), sorted. */
export const importGraph = (entry: string): string[] => {
  const seen = new Set<string>();
  const visit = (f: string) => {
    if (seen.has(f) || !f.endsWith('.ts')) return;
    try {
      src(f);
    } catch {
      return;
    }
    seen.add(f);
    for (const t of importsOf(f)) visit(t);
  };
  visit(entry);
  return [...seen].sort();
};
