import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { eventPublisherRow } from '../functions/events/worker.ts';
import { paymentWorkers } from '../functions/payments/workers.ts';
import { webhookWorkers } from '../functions/webhooks/workers.ts';
import { routes } from '../functions/routes.ts';
import { ensureNode22 } from '../scripts/fetch-node22.ts';
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
/**
 * The fair floor inside the fixed packages every endpoint uses (middy, Zod Mini;
 * bench/fixed-floor-handler.ts), built the same way: reported, not budgeted.
 */
export const FIXED_FLOOR = '(floor, fixed packages)';

const CLIENT =
  /^(@aws-sdk\/client-(?!dynamodb$).+|stripe|@apple\/.+|@googleapis\/.+|google-auth-library|aws-jwt-verify)$/;

/**
 * Packages a bundle carries beyond the fixed-package floor's, by name: another service's client (an
 * AWS SDK client besides DynamoDB's, Stripe, Apple's or Google's libraries) or the token verifier
 * (aws-jwt-verify). `inputs` are the bundle's source files (the `inputs.json` beside it).
 */
export const clientsBeyondFloor = (inputs: readonly string[]): string[] => {
  const names = inputs.flatMap((file) => {
    const name = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file)?.[1];
    return name && CLIENT.test(name) ? [name] : [];
  });
  return [...new Set(names)].sort();
};

export const buildBundles = async (): Promise<BundleInfo[]> => {
  const outDir = join(BENCH_DIR, 'bundles');
  rmSync(outDir, { recursive: true, force: true });
  const entries = new Map<string, string>([
    [DEFAULT_FLOOR, join(ROOT, 'bench/floor-handler.ts')],
    [ENV_FLOOR, join(ROOT, 'bench/floor-handler.ts')],
    [FIXED_FLOOR, join(ROOT, 'bench/fixed-floor-handler.ts')],
  ]);
  for (const row of [...routes, eventPublisherRow, ...webhookWorkers, ...paymentWorkers])
    entries.set(row.handler, join(ROOT, 'functions', `${row.handler}.ts`));
  const folderOf = (name: string) => name.replace(/[^a-z0-9-]+/gi, '_');
  const functions = [...entries].filter(([name]) => name !== DEFAULT_FLOOR);
  // Every function and the fair floors (ENV_FLOOR, FIXED_FLOOR) are built as the stack builds them, with the
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

/** One bundle's cold import: medians over the paired runs, in both clocks. */
export interface ColdImport {
  /** Process CPU time of the import (ms, median): the budgeted figure. */
  cpuMs: number;
  /** Median of the paired CPU-time ratios to the fair floor: what bench:check budgets. */
  ratio: number;
  /** Wall time of the import (ms, median), reported beside the CPU time. */
  ms: number;
  /** Median of the paired wall-time ratios to the fair floor (reported, not budgeted). */
  wallRatio: number;
}

/** What the cold-import ratios are measured in (report.coldImportClock; bench:check refuses others). */
export const COLD_IMPORT_CLOCK = 'process CPU time';

/**
 * Cold module evaluation, as Lambda's init phase runs it: a fresh process of the Lambda runtime's
 * Node (nodejs22.x: the pinned Node 22 of scripts/fetch-node22.ts, as bench/lambda-init.ts runs)
 * imports the bundle, with the functions' environment (no NODE_OPTIONS). The child measures the
 * import's wall time and its process CPU time (`process.cpuUsage()`, every thread of the process:
 * the main thread, V8's background compilers and GC). The ratios are budgeted on CPU time: on
 * Lambda init runs on the function's own vCPU share, where it is CPU-bound and every thread of the
 * process shares that CPU, so its duration is the CPU it uses; on this shared machine wall time
 * also counts the time the process waited for a core (docs/performance.md, issue 41 fourth
 * round). Wall time is reported beside it. Each run imports the fair floor bundle (ENV_FLOOR) and
 * then the function, back to back, so both see the same machine state (a shared VM's speed drifts
 * by 30% or more between seconds); each ratio is the median of these paired ratios, each time the
 * median of `runs`.
 */
export const measureColdImports = (
  bundles: readonly BundleInfo[],
  runs = 7,
): { node: string; imports: Map<string, ColdImport> } => {
  const node = ensureNode22();
  const script =
    'const c=process.cpuUsage(),t=performance.now();await import(process.argv[1]);const w=performance.now()-t,d=process.cpuUsage(c);process.stdout.write(JSON.stringify([w,(d.user+d.system)/1000,process.version]))';
  let version = '';
  const importOf = (file: string): { wall: number; cpu: number } => {
    const [wall, cpu, v] = JSON.parse(
      execFileSync(node, ['--input-type=module', '-e', script, file], {
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
    ) as [number, number, string];
    version = v;
    return { wall, cpu };
  };
  const floor = bundles.find((b) => b.name === ENV_FLOOR)!;
  const samples = new Map(
    bundles.map((b) => [
      b.name,
      { wall: [] as number[], cpu: [] as number[], wallRatios: [] as number[], cpuRatios: [] as number[] },
    ]),
  );
  for (let run = 0; run < runs; run++) {
    for (const bundle of bundles) {
      const floorImport = importOf(floor.file);
      const fn = bundle === floor ? floorImport : importOf(bundle.file);
      const s = samples.get(bundle.name)!;
      s.wall.push(fn.wall);
      s.cpu.push(fn.cpu);
      s.wallRatios.push(fn.wall / floorImport.wall);
      s.cpuRatios.push(fn.cpu / floorImport.cpu);
    }
  }
  const imports = new Map(
    [...samples].map(([name, s]) => [
      name,
      {
        cpuMs: median(s.cpu),
        ratio: median(s.cpuRatios),
        ms: median(s.wall),
        wallRatio: median(s.wallRatios),
      },
    ]),
  );
  return { node: version, imports };
};
