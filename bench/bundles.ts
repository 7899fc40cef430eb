import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { eventPublisherRow } from '../functions/events/worker.ts';
import { paymentWorkers } from '../functions/payments/workers.ts';
import { webhookWorkers } from '../functions/webhooks/workers.ts';
import { routes } from '../functions/routes.ts';
import { bundleLambdas } from '../scripts/lambda-bundle.ts';

/** Where the benchmark writes its bundles and reports (git-ignored; BENCH_DIR overrides). */
export const BENCH_DIR = process.env.BENCH_DIR ?? resolve(import.meta.dirname, '../.local/bench');
const ROOT = resolve(import.meta.dirname, '..');

export interface BundleInfo {
  name: string;
  file: string;
  bytes: number;
  gzipBytes: number;
}

/**
 * Builds one bundle per route-table handler, the event publisher's (infra/events.ts), the webhook
 * fan-out's and sender's (infra/webhooks.ts) and the floor, exactly as the stack builds them.
 */
/**
 * The floor every cold-start ratio is taken against (issue 41): the floor handler built as the
 * functions are, its credential chain aliased to environment credentials (infra/bundling.ts).
 */
export const ENV_FLOOR = '(floor, environment credentials)';
/** The same handler with the SDK's default credential chain (the floor before issue 41): reported, not budgeted. */
export const DEFAULT_FLOOR = '(floor)';

export const buildBundles = async (): Promise<BundleInfo[]> => {
  const outDir = join(BENCH_DIR, 'bundles');
  rmSync(outDir, { recursive: true, force: true });
  const entries = new Map<string, string>([
    [DEFAULT_FLOOR, join(ROOT, 'bench/floor-handler.ts')],
    [ENV_FLOOR, join(ROOT, 'bench/floor-handler.ts')],
  ]);
  for (const row of [...routes, eventPublisherRow, ...webhookWorkers, ...paymentWorkers])
    entries.set(row.handler, join(ROOT, 'functions', `${row.handler}.ts`));
  const folderOf = (name: string) => name.replace(/[^a-z0-9-]+/gi, '_');
  const functions = [...entries].filter(([name]) => name !== DEFAULT_FLOOR);
  // Every function and the fair floor (ENV_FLOOR) are built as the stack builds them, with the
  // chain aliased to environment credentials (infra/bundling.ts); the default floor is built with
  // the SDK's default chain, for the report only.
  const files = new Map([
    ...(await bundleLambdas(new Map(functions.map(([name, entry]) => [folderOf(name), entry])), outDir)),
    ...(await bundleLambdas(new Map([[folderOf(DEFAULT_FLOOR), entries.get(DEFAULT_FLOOR)!]]), outDir, {
      defaultCredentials: true,
    })),
  ]);
  return [...entries.keys()].map((name) => {
    const file = files.get(folderOf(name))!;
    return { name, file, bytes: statSync(file).size, gzipBytes: gzipSync(readFileSync(file)).length };
  });
};

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/**
 * Cold module evaluation: milliseconds to import the bundle in a fresh Node process (what Lambda
 * does in its init phase). Each run imports the fair floor bundle (ENV_FLOOR) and then the
 * function, back to back,
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
          // What Lambda runs: the functions' environment sets no NODE_OPTIONS since issue 41 (no
          // --enable-source-maps, ~10 ms of CPU per init on Node 22; test/infra/stack.test.ts).
          NODE_OPTIONS: '',
          AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
        },
        encoding: 'utf8',
      }),
    );
  const floor = bundles.find((b) => b.name === ENV_FLOOR)!;
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
