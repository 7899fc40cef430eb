import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Stack traces mapped to the sources, read only when an error is logged. A Lambda bundle ships
 * each of its files with its source map beside it (`index.mjs.map`, `chunks/<name>.mjs.map`,
 * infra/bundling.ts) but does not run with `--enable-source-maps`: on Node 22 that flag reads,
 * parses and indexes the map of every module at init (`maybeCacheSourceMap`), for every cold
 * start, to serve the rare stack that is printed (docs/performance.md, "Source maps"). Here a
 * file's map is read at the first stack that needs it, once per container. Outside a bundle (tsx,
 * vitest) there is no map beside the file and a stack is returned as it is, already in source
 * terms.
 */
const maps = new Map<string, SourceMap | null>();

const sourceMapOf = (file: string): SourceMap | null => {
  let map = maps.get(file);
  if (map === undefined) {
    try {
      map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8')));
    } catch {
      map = null;
    }
    maps.set(file, map);
  }
  return map;
};

/** The bundle's folder: this module's, or its parent when this module is in one of its chunks. */
const BUNDLE_DIR = ((dir) => (dir.endsWith('/chunks') ? dirname(dir) : dir))(
  dirname(fileURLToPath(import.meta.url)),
);

/** A frame's location: `file:///…/index.mjs:LINE:COLUMN` (or the plain path). */
const LOCATION = /(file:\/\/\/?[^\s()]+|\/[^\s()]+):(\d+):(\d+)/g;

/** The path of a frame's file when it is a file of this bundle (index.mjs or a chunk). */
const bundleFileOf = (file: string): string | undefined => {
  const path = file.startsWith('file:') ? fileURLToPath(file) : file;
  return path.endsWith('.mjs') &&
    (dirname(path) === BUNDLE_DIR || dirname(path) === join(BUNDLE_DIR, 'chunks'))
    ? path
    : undefined;
};

/**
 * `stack` with each frame in this bundle named by its source file, line and column
 * (`shared/http/handler.ts:61:9`, the path as the map records it, without leading `../`);
 * frames elsewhere (Node's own) and a stack outside a bundle are left as they are.
 */
export const mappedStack = (stack: string | undefined): string | undefined => {
  if (!stack) return stack;
  return stack.replace(LOCATION, (frame, file: string, line: string, column: string) => {
    const path = bundleFileOf(file);
    const map = path ? sourceMapOf(path) : null;
    const entry = map?.findEntry(Number(line) - 1, Number(column) - 1);
    if (!entry || !('originalSource' in entry)) return frame;
    const source = entry.originalSource.replace(/^file:\/\//, '').replace(/^(\.\.\/)+/, '');
    return `${source}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
  });
};
