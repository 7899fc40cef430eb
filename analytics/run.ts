/**
 * The analysts' command (docs/analytics.md), over the local analytics files (DuckDB):
 * - `npm run analytics -- report --from 2026-11-22 --to 2026-11-23 --by device --tz Europe/Paris`
 *   writes .local/analytics-report/index.html (`--out` elsewhere): every metric over time and
 *   broken down, with definitions and units; `--grain minute|hour|day` (default: hour up to two
 *   days, else day);
 * - `npm run analytics -- <metric> [same options]` prints one metric as a table;
 * - `npm run analytics -- sql <metric> [same options] [--dialect athena]` prints its SQL as that
 *   engine runs it (the Athena text is what to paste into the workgroup);
 * - `npm run analytics -- list` names the metrics and the dimensions;
 * - `npm run analytics -- export-titles [--seed 42] [--scale 1]` writes the demo catalogue's
 *   title dimension (npm start loads the seed without the projector; later edits it follows);
 *   `export-titles --from-table` backfills a table's (TABLE_NAME, a one-off Scan; to Firehose
 *   when ANALYTICS_STREAM_NAME is set: an operator's step after the first deploy).
 * Without `--from`/`--to` the period is the days that have events. Without events it says how to
 * make some (exit 1). ANALYTICS_DIR overrides the data folder.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  DIMENSIONS,
  type Dialect,
  type Dimension,
  GRAINS,
  type Grain,
  metrics,
  renderSql,
  runMetrics,
  runSlices,
  type Slice,
} from './metrics.ts';
import { checkZone, offsetChanges, periodOf, zoneOffsetMs } from './period.ts';
import { reportHtml } from './report.ts';

const dir = process.env.ANALYTICS_DIR ?? resolve(import.meta.dirname, '../.local/analytics');
const { values: options, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    from: { type: 'string' },
    to: { type: 'string' },
    by: { type: 'string' },
    tz: { type: 'string', default: 'UTC' },
    grain: { type: 'string' },
    dialect: { type: 'string', default: 'duckdb' },
    out: { type: 'string' },
    seed: { type: 'string', default: '42' },
    scale: { type: 'string', default: '1' },
    'from-table': { type: 'boolean', default: false },
  },
});
const [command, metricName] = positionals;

const fail = (message: string, code = 2): never => {
  console.error(message);
  process.exit(code);
};

/** The days (dt=…) that hold events, sorted. */
const eventDays = (): string[] =>
  existsSync(dir)
    ? [
        ...new Set(
          readdirSync(dir, { recursive: true, encoding: 'utf8' })
            .filter((f) => f.endsWith('.ndjson') && !f.startsWith('family=catalog'))
            .map((f) => f.match(/dt=(\d{4}-\d{2}-\d{2})/)?.[1])
            .filter((d): d is string => d !== undefined),
        ),
      ].sort()
    : [];

if (command === undefined || command === 'list') {
  if (command === undefined) console.log('npm run analytics -- report | sql <metric> | <metric>. Metrics:');
  console.log([...metrics().keys()].join('\n'));
  console.log(
    `\nDimensions (--by): ${Object.keys(DIMENSIONS).join(', ')}\nGrains (--grain): minute, hour, day`,
  );
  process.exit(0);
}

if (command === 'export-titles') {
  const { catalogTitleRows, titleRecord, titleRowsOf } = await import(
    '../shared/analytics/title-dimension.ts'
  );
  const { getSink } = await import('../shared/analytics/sink.ts');
  const { fileSink } = await import('../scripts/local/file-sink.ts');
  const now = new Date();
  let rows: ReturnType<typeof catalogTitleRows>;
  if (options['from-table']) {
    // The backfill of a table's catalogue (a one-off Scan, never on a request path): TABLE_NAME
    // (AWS_ENDPOINT_URL_DYNAMODB for DynamoDB Local); to Firehose when ANALYTICS_STREAM_NAME is set.
    const { DynamoDBDocumentClient, ScanCommand } = await import('@aws-sdk/lib-dynamodb');
    const { newDynamoClient } = await import('../shared/db/client.ts');
    const { tableName } = await import('../shared/db/table.ts');
    const client = DynamoDBDocumentClient.from(newDynamoClient());
    rows = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await client.send(
        new ScanCommand({
          TableName: tableName(),
          FilterExpression: 'entity IN (:creator, :show, :episode)',
          ExpressionAttributeValues: { ':creator': 'creator', ':show': 'show', ':episode': 'episode' },
          ExclusiveStartKey: start,
        }),
      );
      rows.push(...(page.Items ?? []).flatMap((item) => titleRowsOf(item)));
      start = page.LastEvaluatedKey;
    } while (start);
  } else {
    // The demo catalogue's rows (npm start seeds the table without the projector seeing it).
    const { generateCatalog } = await import('../scripts/seed/generate.ts');
    rows = catalogTitleRows(
      generateCatalog({ now, seed: Number(options.seed), scale: Number(options.scale) }),
    );
  }
  const stream = process.env.ANALYTICS_STREAM_NAME;
  await (stream ? await getSink() : fileSink(() => dir)).put(rows.map((row) => titleRecord(row, now)));
  console.log(`wrote ${rows.length} title rows ${stream ? `to ${stream}` : `under ${dir}/family=catalog`}`);
  process.exit(0);
}

const days = eventDays();
if (command !== 'sql' && days.length === 0)
  fail(
    `No analytics events under ${dir} yet.\n` +
      'Run `npm start` and send it player events (docs/analytics.md), then `npm run analytics -- report`; or set ANALYTICS_DIR to a folder of events.',
    1,
  );

const zone = (() => {
  try {
    return checkZone(options.tz);
  } catch (error) {
    return fail((error as Error).message);
  }
})();
const from = options.from ?? days[0] ?? fail('--from YYYY-MM-DD is needed');
const to = options.to ?? (options.from ? from : days.at(-1)!);
const { fromMs, toMs } = (() => {
  try {
    return periodOf(from, to, zone);
  } catch (error) {
    return fail((error as Error).message);
  }
})();
const by = options.by as Dimension | undefined;
if (by !== undefined && !(by in DIMENSIONS)) fail(`--by is one of: ${Object.keys(DIMENSIONS).join(', ')}`);
const grain = (options.grain ?? (toMs - fromMs <= 2 * GRAINS.day ? 'hour' : 'day')) as Exclude<
  Grain,
  'total'
>;
if (!['minute', 'hour', 'day'].includes(grain)) fail('--grain is one of: minute, hour, day');
const offsetMs = zoneOffsetMs(zone, fromMs);
const changes = offsetChanges(zone, fromMs, toMs);
const slice: Slice = {
  fromMs,
  toMs,
  grain,
  by,
  offsetMs,
  ...(changes.length > 0 ? { offsetChanges: changes } : {}),
};
const all = metrics();

if (command === 'report') {
  const [series, totals] = await runSlices(dir, [slice, { ...slice, grain: 'total' }]);
  const chartJs = readFileSync(
    resolve(dirname(createRequire(import.meta.url).resolve('chart.js')), 'chart.umd.min.js'),
    'utf8',
  );
  const html = reportHtml({
    from,
    to,
    zone,
    grain,
    by,
    fromMs,
    toMs,
    offsetMs,
    offsetChanges: changes,
    generatedAt: new Date(),
    source: dir,
    chartJs,
    results: [...all.values()].map((metric) => ({
      metric,
      series: series.get(metric.name) ?? [],
      totals: totals.get(metric.name) ?? [],
    })),
  });
  const out = resolve(options.out ?? resolve(import.meta.dirname, '../.local/analytics-report/index.html'));
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, html);
  console.log(`wrote ${out} (${from} to ${to}, ${zone}, per ${grain}${by ? `, by ${by}` : ''})`);
  if ([...totals.values()].every((rows) => rows.length === 0))
    console.log(
      `No player events from ${from} to ${to} (${zone}) under ${dir}: every chart and table of the report is empty.\n` +
        `Days with events: ${days.join(', ')} (choose them with --from and --to).`,
    );
} else if (command === 'sql') {
  const metric = all.get(metricName ?? '') ?? fail(`sql <metric>: one of ${[...all.keys()].join(', ')}`);
  if (!['duckdb', 'athena'].includes(options.dialect)) fail('--dialect is duckdb or athena');
  console.log(renderSql(metric.sql, options.dialect as Dialect, slice));
} else {
  if (!all.has(command)) fail(`Unknown metric ${command}. Metrics: ${[...all.keys()].join(', ')}`);
  const rows = (await runMetrics(dir, slice, [command])).get(command) ?? [];
  console.table(
    rows.map(({ bucket_ms, ...rest }) => ({ bucket: new Date(Number(bucket_ms)).toISOString(), ...rest })),
  );
}
