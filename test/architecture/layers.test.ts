import { describe, expect, it } from 'vitest';
import {
  folderCycles,
  folderImports,
  importGraph,
  mutualPairs,
  unplacedFolders,
  upwardImports,
  walk,
} from '../../scripts/metrics/import-graph.ts';

// The layering of shared/ (docs/architecture.md, scripts/metrics/layers.ts), over the import graph.
describe('shared/ layers', () => {
  const imports = folderImports();

  it('places every folder under shared/ in a layer', () => {
    expect(unplacedFolders()).toEqual([]);
  });

  it('has no folder importing a folder of a higher layer', () => {
    expect(upwardImports(imports).map((i) => `${i.file} -> ${i.target}`)).toEqual([]);
  });

  it('has no two folders importing each other, directly or round a cycle', () => {
    expect(mutualPairs(imports)).toEqual([]);
    expect(folderCycles(imports)).toEqual([]);
  });

  it('keeps operator-only code out of every function and shared module', () => {
    const lambdaCode = [...walk('functions'), ...walk('shared')];
    const reached = new Set(lambdaCode.flatMap((f) => importGraph(f)));
    expect([...reached].filter((f) => f.startsWith('scripts/') || f.startsWith('test/'))).toEqual([]);
  });

  it('can fail: an upward import, a pair and a cycle are reported', () => {
    const fake = [
      { from: 'db', to: 'http', file: 'shared/db/x.ts', target: 'shared/http/y.ts' },
      { from: 'http', to: 'db', file: 'shared/http/y.ts', target: 'shared/db/x.ts' },
      { from: 'shows', to: 'creators', file: 'shared/shows/a.ts', target: 'shared/creators/b.ts' },
      { from: 'creators', to: 'epg', file: 'shared/creators/b.ts', target: 'shared/epg/c.ts' },
      { from: 'epg', to: 'shows', file: 'shared/epg/c.ts', target: 'shared/shows/a.ts' },
    ];
    expect(upwardImports(fake).map((i) => i.file)).toEqual(['shared/db/x.ts']);
    expect(mutualPairs(fake)).toEqual(['db-http']);
    expect(folderCycles(fake)).toContainEqual(['creators', 'epg', 'shows']);
  });
});
