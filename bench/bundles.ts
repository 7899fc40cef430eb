import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { routes } from '../functions/routes.ts';
import { LAMBDA_BUNDLING } from '../infra/bundling.ts';

/** Where the benchmark writes its bundles and reports (git-ignored). */
export const BENCH_DIR = resolve(import.meta.dirname, '../.local/bench');
const ROOT = resolve(import.meta.dirname, '..');

export interface BundleInfo {
  name: string;
  file: string;
  bytes: number;
  gzipBytes: number;
}

/** Builds one bundle per route-table handler, plus the floor, exactly as the stack builds them. */
export const buildBundles = async (): Promise<BundleInfo[]> => {
  const outDir = join(BENCH_DIR, 'bundles');
  rmSync(outDir, { recursive: true, force: true });
  const entries = new Map<string, string>([['(floor)', join(ROOT, 'bench/floor-handler.ts')]]);
  for (const row of routes) entries.set(row.handler, join(ROOT, 'functions', `${row.handler}.ts`));
  const infos: BundleInfo[] = [];
  for (const [name, entry] of entries) {
    const dir = join(outDir, name.replace(/[^a-z0-9-]+/gi, '_'));
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'index.mjs');
    await build({
      entryPoints: [entry],
      outfile: file,
      bundle: true,
      format: LAMBDA_BUNDLING.format,
      platform: LAMBDA_BUNDLING.platform,
      target: LAMBDA_BUNDLING.target,
      mainFields: [...LAMBDA_BUNDLING.mainFields],
      banner: { js: LAMBDA_BUNDLING.banner },
      minify: LAMBDA_BUNDLING.minify,
      sourcemap: LAMBDA_BUNDLING.sourcemap,
      sourcesContent: LAMBDA_BUNDLING.sourcesContent,
      logLevel: 'error',
    });
    const code = readFileSync(file);
    infos.push({ name, file, bytes: statSync(file).size, gzipBytes: gzipSync(code).length });
  }
  return infos;
};

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/**
 * Cold module evaluation: milliseconds to import the bundle in a fresh Node process (what Lambda
 * does in its init phase). Each run imports the floor bundle and then the function, back to back,
 * so both see the same machine state (a shared VM's speed drifts by 30% or more between
 * seconds); the ratio is the median of these paired ratios, the time the median of `runs`.
 */
export const measureColdImports = (
  bundles: readonly BundleInfo[],
  runs = 7,
): Map<string, { ms: number; ratio: number }> => {
  const script =
    'const t=performance.now();await import(process.argv[1]);process.stdout.write(String(performance.now()-t))';
  const importMs = (file: string) =>
    Number(
      execFileSync(process.execPath, ['--input-type=module', '-e', script, file], {
        env: {
          ...process.env,
          AWS_REGION: 'us-east-1',
          TABLE_NAME: 'bench',
          NODE_OPTIONS: '',
          AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
        },
        encoding: 'utf8',
      }),
    );
  const floor = bundles.find((b) => b.name === '(floor)')!;
  const samples = new Map(bundles.map((b) => [b.name, { ms: [] as number[], ratios: [] as number[] }]));
  for (let run = 0; run < runs; run++) {
    for (const bundle of bundles) {
      const floorMs = importMs(floor.file);
      const ms = bundle === floor ? floorMs : importMs(bundle.file);
      samples.get(bundle.name)!.ms.push(ms);
      samples.get(bundle.name)!.ratios.push(ms / floorMs);
    }
  }
  return new Map([...samples].map(([name, s]) => [name, { ms: median(s.ms), ratio: median(s.ratios) }]));
};
