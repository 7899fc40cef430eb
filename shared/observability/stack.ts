import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';

/**
 * Stack traces mapped to the sources, read only when an error is logged. A Lambda bundle ships
 * its source map beside it (`index.mjs.map`, infra/bundling.ts) but does not run with
 * `--enable-source-maps`: on Node 22 that flag reads, parses and indexes the map of every module
 * at init (`maybeCacheSourceMap`), for every cold start, to serve the rare stack that is printed
 * (docs/performance.md, "Source maps"). Here the map is read at the first stack that needs it, once
 * per container. Outside a bundle (tsx, vitest) there is no map beside this file and a stack is
 * returned as it is, already in source terms.
 */
let bundleMap: SourceMap | null | undefined;
const BUNDLE = import.meta.url;

const sourceMap = (): SourceMap | null => {
  if (bundleMap === undefined) {
    try {
      bundleMap = new SourceMap(JSON.parse(readFileSync(`${fileURLToPath(BUNDLE)}.map`, 'utf8')));
    } catch {
      bundleMap = null;
    }
  }
  return bundleMap;
};

/** A frame's location in this file: `file:///…/index.mjs:LINE:COLUMN` (or the plain path). */
const LOCATION = /(file:\/\/\/?[^\s()]+|\/[^\s()]+):(\d+):(\d+)/g;

/**
 * `stack` with each frame in this bundle named by its source file, line and column
 * (`shared/http/handler.ts:61:9`, the path as the map records it, without leading `../`);
 * frames elsewhere (Node's own) and a stack outside a bundle are left as they are.
 */
export const mappedStack = (stack: string | undefined): string | undefined => {
  if (!stack) return stack;
  const bundlePath = fileURLToPath(BUNDLE);
  return stack.replace(LOCATION, (frame, file: string, line: string, column: string) => {
    if (file !== BUNDLE && file !== bundlePath) return frame;
    const map = sourceMap();
    const entry = map?.findEntry(Number(line) - 1, Number(column) - 1);
    if (!entry || !('originalSource' in entry)) return frame;
    const source = entry.originalSource.replace(/^file:\/\//, '').replace(/^(\.\.\/)+/, '');
    return `${source}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
  });
};
