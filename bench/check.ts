/**
 * `npm run bench:check [-- --fast]`: fails (exit 1) when the latest report breaks a budget in
 * bench/budget.json. With --fast it builds the bundles and measures cold imports first (CI).
 * Without a report it says which command makes one (exit 2).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { BENCH_DIR, COLD_IMPORT_CLOCK, ENV_FLOOR, median } from './bundles.ts';
import { type MeasuredPhases, phaseProblems } from './critical-path.ts';

const { values } = parseArgs({ options: { fast: { type: 'boolean', default: false } } });
if (values.fast)
  execFileSync(process.execPath, ['--import', 'tsx', 'bench/run.ts', '--fast', '--runs', '5'], {
    stdio: 'ignore',
  });
const budget = JSON.parse(readFileSync(join(import.meta.dirname, 'budget.json'), 'utf8'));
const reportFile = join(BENCH_DIR, values.fast ? 'report-fast.json' : 'report.json');
if (!existsSync(reportFile)) {
  console.error(
    `No benchmark report at ${reportFile}.\n` +
      'Run `npm run bench` first, or `npm run bench:check -- --fast` to measure and check bundles and cold imports only (~2 min).',
  );
  process.exit(2);
}
const report = JSON.parse(readFileSync(reportFile, 'utf8'));
const broken: string[] = [];

// Cold-start ratios are budgeted against the fair floor (issue 41): the floor handler built as the
// functions are (ENV_FLOOR). A report whose ratios are to another floor says nothing about these
// budgets, so it is refused, not read.
if (report.coldImportFloor !== ENV_FLOOR)
  broken.push(
    `cold imports: the report's ratios are not to the floor ${ENV_FLOOR} (a report from before issue 41); run the bench again`,
  );
// The cold-import budgets are on process CPU time on the Lambda runtime's Node (bench/bundles.ts
// measureColdImports; budget.json says why); a report in wall time (before issue 41's fourth
// round) is refused, not read.
if (report.coldImportClock !== COLD_IMPORT_CLOCK)
  broken.push(
    `cold imports: the report's ratios are not in ${COLD_IMPORT_CLOCK} (a report from before issue 41's fourth round); run the bench again`,
  );
const bundles = report.bundles as Array<{
  name: string;
  bytes: number;
  gzipBytes: number;
  ratio: number;
  wallRatio?: number;
}>;
const functionBundles = bundles.filter((b) => !b.name.startsWith('(')); // the floors are not functions
const medianRatio = median(functionBundles.map((b) => b.ratio));
if (medianRatio > budget.coldImportMedianRatioToFloor)
  broken.push(`median cold import ${medianRatio.toFixed(2)}x floor > ${budget.coldImportMedianRatioToFloor}`);
// Reported, not budgeted: the same imports' wall time on this machine.
const wallRatios = functionBundles.flatMap((b) => (b.wallRatio === undefined ? [] : [b.wallRatio]));
const coldSummary = `cold import median ${medianRatio.toFixed(2)}x the floor in CPU time${
  wallRatios.length > 0 ? `, ${median(wallRatios).toFixed(2)}x in wall time` : ''
}`;
for (const b of bundles) {
  const maxBytes = budget.bundleExceptions?.[b.name]?.maxBundleBytes ?? budget.maxBundleBytes;
  if (b.bytes > maxBytes) broken.push(`${b.name}: bundle ${b.bytes} B > ${maxBytes}`);
  const maxGzip = budget.bundleExceptions?.[b.name]?.maxBundleGzipBytes ?? budget.maxBundleGzipBytes;
  if (b.gzipBytes > maxGzip) broken.push(`${b.name}: gzip ${b.gzipBytes} B > ${maxGzip}`);
  const maxRatio = budget.bundleExceptions?.[b.name]?.maxColdImportRatio ?? budget.coldImportRatioToFloor;
  if (b.ratio > maxRatio) broken.push(`${b.name}: cold import ${b.ratio.toFixed(2)}x floor > ${maxRatio}`);
}
// Lambda-like cold starts (bench/lambda-init.ts; only in the full report, never in the --fast one).
const lambdaInit = report.lambdaInit as
  | {
      floorName?: string;
      rows: Array<{ name?: string; ratio: number; statusCode?: number; undici?: boolean }>;
    }
  | undefined;
if (lambdaInit && lambdaInit.floorName !== ENV_FLOOR)
  broken.push(`Lambda-like init: the report's ratios are not to the floor ${ENV_FLOOR}; run the bench again`);
else if (lambdaInit && budget.lambdaInitMedianRatioToFloor) {
  // A figure counts only a request that succeeded: an error answer is cheaper than the work it skipped.
  for (const row of lambdaInit.rows)
    if (!(Number(row.statusCode) >= 200 && Number(row.statusCode) < 300))
      broken.push(
        `Lambda-like init: ${row.name} answered ${row.statusCode}, not a success (its figure cannot count)`,
      );
  // Reached over HTTPS, no process loads undici; one that did paid the http facade's artefact.
  for (const row of lambdaInit.rows)
    if (row.undici)
      broken.push(`Lambda-like init: ${row.name} or its floor loaded undici (its figure cannot count)`);
  const initMedian = median(lambdaInit.rows.map((r) => r.ratio));
  if (initMedian > budget.lambdaInitMedianRatioToFloor)
    broken.push(
      `Lambda-like init: median ${initMedian.toFixed(2)}x floor > ${budget.lambdaInitMedianRatioToFloor}`,
    );
}
for (const w of (report.warm ?? []) as Array<{ name: string; ratio: number; scans: number }>) {
  if (w.ratio > budget.warmP50RatioToBareCalls)
    broken.push(`${w.name}: warm p50 ${w.ratio.toFixed(2)}x bare calls > ${budget.warmP50RatioToBareCalls}`);
  if (w.scans > budget.scans) broken.push(`${w.name}: ${w.scans} Scan(s)`);
}
for (const g of (report.growth ?? []) as Array<{
  name: string;
  latencyRatio: number;
  capacityRatio: number;
}>) {
  const limits = budget.growthExceptions?.[g.name] ?? {
    latencyRatio: budget.growthLatencyRatio10x,
    capacityRatio: budget.growthCapacityRatio10x,
  };
  if (g.latencyRatio > limits.latencyRatio)
    broken.push(`${g.name}: 10x latency ratio ${g.latencyRatio.toFixed(2)} > ${limits.latencyRatio}`);
  if (g.capacityRatio > limits.capacityRatio)
    broken.push(`${g.name}: 10x capacity ratio ${g.capacityRatio.toFixed(2)} > ${limits.capacityRatio}`);
}
// Projections (bench/projection.ts; only in the full report, never in the --fast one).
const projection = report.projection as
  | {
      scales: Array<{ scale: number; freshness: Record<string, { p99: number; timeouts: number }> }>;
      costRatios: Array<{ kind: string; ratio: number }>;
    }
  | undefined;
if (projection && budget.projection) {
  for (const s of projection.scales) {
    const overall = s.freshness.overall;
    if (overall && overall.p99 > budget.projection.freshnessP99Ms)
      broken.push(
        `projection ${s.scale}x: freshness p99 ${overall.p99.toFixed(0)} ms > ${budget.projection.freshnessP99Ms}`,
      );
    if (overall && overall.timeouts > 0)
      broken.push(`projection ${s.scale}x: ${overall.timeouts} write(s) never shown by every endpoint`);
  }
  for (const { kind, ratio } of projection.costRatios)
    if (ratio > budget.projection.costRatio10x)
      broken.push(
        `projection ${kind}: 10x capacity ratio ${ratio.toFixed(2)} > ${budget.projection.costRatio10x}`,
      );
}
// Cost model (bench/cost.ts; only in the full report): ratio to the floor and dollars per unit.
const cost = report.cost as
  | { journeys: Array<{ name: string; ratio: number; dollars: { total: number } }> }
  | undefined;
if (cost && budget.cost) {
  for (const j of cost.journeys) {
    const limit = budget.cost.journeys?.[j.name] as { ratioToFloor: number; usd: number } | undefined;
    if (!limit) {
      broken.push(`cost ${j.name}: no budget in bench/budget.json (cost.journeys)`);
      continue;
    }
    if (j.ratio > limit.ratioToFloor)
      broken.push(`cost ${j.name}: ${j.ratio.toFixed(2)}x the floor > ${limit.ratioToFloor}`);
    if (j.dollars.total > limit.usd)
      broken.push(`cost ${j.name}: $${j.dollars.total.toFixed(3)} > $${limit.usd}`);
  }
}
// Dependent DynamoDB phases per endpoint (bench/phases.ts; in the full report only: `npm test`
// holds them through test/platform/phases.int.test.ts, so the --fast run starts no platform).
if (budget.dbPhases && !values.fast) {
  const dbPhases = report.dbPhases as MeasuredPhases[] | undefined;
  if (!dbPhases) broken.push('DynamoDB phases: no figures in the report (bench/phases.ts)');
  else broken.push(...phaseProblems(dbPhases, budget.dbPhases));
}
// Throughput (bench/throughput.ts; full report only): every workload answered only what it expects.
for (const r of (report.throughput ?? []) as Array<{
  name: string;
  statuses?: Record<string, number>;
  unexpected?: Record<string, number>;
}>) {
  if (!r.unexpected) broken.push(`throughput ${r.name}: no status counts (a report from before issue 41)`);
  else if (Object.keys(r.unexpected).length > 0)
    broken.push(`throughput ${r.name}: statuses it does not expect ${JSON.stringify(r.statuses)}`);
}
// The chat review handler's warm path (bench/chat-review.ts; in the --fast report too).
const chatReview = report.chatReview as { p99Ms: number } | undefined;
if (budget.chatReview) {
  if (!chatReview) broken.push('chat review: no figure in the report (bench/chat-review.ts)');
  else if (chatReview.p99Ms > budget.chatReview.p99Ms)
    broken.push(`chat review: p99 ${chatReview.p99Ms.toFixed(3)} ms > ${budget.chatReview.p99Ms}`);
}
if (broken.length > 0) {
  console.error(`Budgets broken (${broken.length}; ${coldSummary}):\n  ${broken.join('\n  ')}`);
  process.exit(1);
}
console.log(
  `All budgets hold (${report.bundles.length} bundles${report.warm ? `, ${report.warm.length} endpoints` : ''}; ${coldSummary}).`,
);
