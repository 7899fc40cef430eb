import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PAYMENT_COLUMNS } from '../shared/analytics/payment-facts.ts';
import { TITLE_COLUMNS } from '../shared/analytics/title-dimension.ts';
import { bucketStarts, type OffsetChange } from './period.ts';

/**
 * The metric queries (analytics/queries/*.sql) and how they are rendered for DuckDB (locally)
 * and Athena (Trino). Every query is a time series broken down by one dimension: it reads the
 * placeholder `{{events}}`, the events of the period with two computed columns, `bucket_ms` (the
 * start of the event's time bucket at the chosen grain, epoch ms) and `dimension` (the value of
 * the chosen breakdown, or `all`), plus `title` (from the title dimension), and answers columns
 * `bucket_ms`, `dimension` and its values. Percentiles are `{{p50(expr)}}` / `{{p95(expr)}}`
 * (quantile_cont in DuckDB, approx_percentile in Athena); everything else is SQL both engines
 * accept (tested in DuckDB). Each file starts with comment lines: the first is the definition,
 * then `-- label: …`, `-- unit: …`, `-- chart: <column>` (the value the report charts; `-- axis: …`,
 * its unit when the metric's has several) and
 * `-- gaps: zero` when a bucket without rows means 0 (counts) rather than no data (ratios).
 */
export const QUERIES_DIR = resolve(import.meta.dirname, 'queries');

export type Dialect = 'duckdb' | 'athena';

/** Time buckets: minute, hour, day, or `total` (the whole period as one bucket). */
export const GRAINS = { minute: 60_000, hour: 3_600_000, day: 86_400_000, total: 0 } as const;
export type Grain = keyof typeof GRAINS;

/**
 * The dimensions a metric can be broken down by (`--by`), as SQL over the period's events `e`
 * joined to the title dimension (`c`: the episode or channel played, `sh`: its show, `cr`: its
 * creator). Session-level values (player, client, country, quality) are the session's, so a
 * session never falls into two groups.
 */
export const DIMENSIONS = {
  device: { label: 'Device type', sql: "coalesce(e.device_type, 'unknown')" },
  title: { label: 'Title', sql: "coalesce(c.title, e.content_id, e.channel_id, 'unknown')" },
  show: {
    label: 'Show',
    sql: "coalesce(sh.title, CASE WHEN e.family = 'live' THEN '(live channel)' ELSE 'unknown' END)",
  },
  creator: { label: 'Creator', sql: "coalesce(cr.title, c.creator_id, 'unknown')" },
  category: { label: 'Category', sql: "coalesce(sh.category, c.category, 'unknown')" },
  family: { label: 'Live or on demand', sql: "CASE WHEN e.family = 'live' THEN 'live' ELSE 'on demand' END" },
  player: {
    label: 'Player and version',
    sql: "coalesce(max(e.player_name || ' ' || e.player_version) OVER (PARTITION BY e.session_id), max(e.player_name) OVER (PARTITION BY e.session_id), 'unknown')",
  },
  client: {
    label: 'Client version',
    sql: "coalesce(max(e.client_version) OVER (PARTITION BY e.session_id), 'unknown')",
  },
  country: { label: 'Country', sql: "coalesce(max(e.country) OVER (PARTITION BY e.session_id), 'unknown')" },
  quality: {
    label: 'Quality (highest rendition)',
    sql: "coalesce(CAST(max(e.height) OVER (PARTITION BY e.session_id) AS VARCHAR) || 'p', 'unknown')",
  },
} as const;
export type Dimension = keyof typeof DIMENSIONS;

/** The period and slicing of one run: `from`/`to` are epoch ms, `to` exclusive. */
export interface Slice {
  fromMs: number;
  toMs: number;
  grain: Grain;
  by?: Dimension;
  /** Offset (ms) added before bucketing, so days start at local midnight (the zone's at `fromMs`). */
  offsetMs?: number;
  /**
   * The zone's offset changes in the period (analytics/period.ts `offsetChanges`): buckets then
   * follow local wall time across them (a day of 23 or 25 hours), as `bucketStarts` does.
   */
  offsetChanges?: readonly OffsetChange[];
  /**
   * Athena named queries: the period as six execution parameters (`?`) instead of literals, in
   * this order: first and last `dt` ('YYYY-MM-DD'), first and last `dt || hour` ('YYYY-MM-DDHH'),
   * from and to (epoch ms, to exclusive).
   */
  parameters?: boolean;
}

/** Event columns the metric queries read (the rest stay in storage, unread). */
const READ_COLUMNS = [
  'session_id',
  'type',
  'family',
  'content_id',
  'channel_id',
  'account_id',
  'client_ts_ms',
  'playing_seconds',
  'rebuffer_ms',
  'fatal',
  'height',
];

/**
 * Events are filed by their receive time (`dt`, `hour`: UTC) and counted by their client time.
 * A period's events are read from the partitions received from CLOCK_AHEAD_MS before it starts
 * (client clocks ahead of the server) to LATE_MS after it ends (batches sent late, retries): an
 * event received later than that is not in the period's answers.
 */
export const CLOCK_AHEAD_MS = 3_600_000;
export const LATE_MS = 3 * 3_600_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const isoHour = (ms: number) => new Date(ms).toISOString().slice(0, 13).replace('T', '');

/** The newest row of each id of the append-only title dimension. */
const LATEST_TITLES =
  '(SELECT id, title, show_id, creator_id, category FROM (SELECT t.id, t.title, t.show_id, t.creator_id, t.category, row_number() OVER (PARTITION BY t.id ORDER BY t.received_at_ms DESC) AS newest FROM titles t) v WHERE newest = 1)';

/**
 * The bucket start (epoch ms, BIGINT) of instant `ts` (a SQL expression) at the slice's grain:
 * floored in local wall time, then read back as an instant. With offset changes in the period the
 * offset is a CASE on the instant (`offsetAt`) and the start's a CASE on its wall time
 * (`offsetAtWall`), the rules `bucketStarts` lists the buckets by; without, one constant.
 */
const bucketSql = (slice: Slice, ts: string): string => {
  const grain = GRAINS[slice.grain];
  if (grain === 0) return `CAST(${slice.fromMs} AS BIGINT)`;
  const offset = slice.offsetMs ?? 0;
  const changes = slice.offsetChanges ?? [];
  if (changes.length === 0)
    return `CAST(floor((${ts} + ${offset}) / ${grain}) * ${grain} - ${offset} AS BIGINT)`;
  const byInstant = `CASE ${changes.map((c) => `WHEN ${ts} < ${c.at} THEN ${c.before}`).join(' ')} ELSE ${changes.at(-1)!.after} END`;
  const wall = `(floor((${ts} + (${byInstant})) / ${grain}) * ${grain})`;
  const byWall = `CASE ${changes.map((c) => `WHEN ${wall} < ${c.at + c.before} THEN ${c.before}`).join(' ')} ELSE ${changes.at(-1)!.after} END`;
  return `CAST(${wall} - (${byWall}) AS BIGINT)`;
};

/**
 * `{{events}}` for a slice: events whose client time is in [from, to), read only from the
 * partitions (`dt`, `hour`: UTC receive time) that can hold them (CLOCK_AHEAD_MS, LATE_MS). On
 * Athena the `dt` range is what partition projection prunes days by; `dt || hour` narrows the
 * edge days to their hours.
 */
export const eventsSql = (slice: Slice): string => {
  const bucket = bucketSql(slice, 'e.client_ts_ms');
  const dimension = slice.by ? DIMENSIONS[slice.by].sql : "'all'";
  const first = slice.fromMs - CLOCK_AHEAD_MS;
  const last = slice.toMs + LATE_MS;
  return `(SELECT ${READ_COLUMNS.map((c) => `e.${c}`).join(', ')},
    ${bucket} AS bucket_ms,
    ${dimension} AS dimension,
    coalesce(c.title, e.content_id, e.channel_id) AS title
  FROM events e
  LEFT JOIN ${LATEST_TITLES} c ON c.id = coalesce(e.content_id, e.channel_id)
  LEFT JOIN ${LATEST_TITLES} sh ON sh.id = c.show_id
  LEFT JOIN ${LATEST_TITLES} cr ON cr.id = c.creator_id
  WHERE e.family IN ('video', 'live')
    AND e.dt BETWEEN ${slice.parameters ? '? AND ?' : `'${isoDay(first)}' AND '${isoDay(last)}'`}
    AND e.dt || e.hour BETWEEN ${slice.parameters ? '? AND ?' : `'${isoHour(first)}' AND '${isoHour(last)}'`}
    AND e.client_ts_ms >= ${slice.parameters ? '?' : slice.fromMs} AND e.client_ts_ms < ${slice.parameters ? '?' : slice.toMs})`;
};

/**
 * `{{payments}}` for a slice: the payment facts (shared/analytics/payment-facts.ts) that occurred
 * before the period ends, one row per `event_id` (a replayed stream record writes its fact
 * again), with `bucket_ms` (of `occurred_at_ms`), `dimension` (always the creator: payment
 * metrics are per creator whatever the breakdown), `store` (who took the payment, the fact's
 * `source`: `stripe`, `apple`, `google`; facts written before it was kept are Stripe's) and
 * `in_period`. Facts before the period are
 * there for the state at its start (MRR); payment facts are few, so every partition is read.
 * Athena parameters: from and to (epoch ms).
 */
export const paymentsSql = (slice: Slice): string => {
  const bucket = bucketSql(slice, 'p.occurred_at_ms');
  return `(SELECT p.*, ${bucket} AS bucket_ms, coalesce(cr.title, p.creator_id) AS dimension, coalesce(p.source, 'stripe') AS store,
    p.occurred_at_ms >= ${slice.parameters ? '?' : slice.fromMs} AS in_period
  FROM (SELECT f.*, row_number() OVER (PARTITION BY f.event_id ORDER BY f.received_at_ms) AS copy FROM payments f) p
  LEFT JOIN ${LATEST_TITLES} cr ON cr.id = p.creator_id
  WHERE p.copy = 1 AND p.occurred_at_ms < ${slice.parameters ? '?' : slice.toMs})`;
};

/**
 * `{{buckets}}` for a slice: every bucket of the period, `bucket_ms` and `end_ms` (exclusive,
 * at most the period's end), for metrics that are a state at each bucket's end (MRR).
 * Athena parameters: from and to (epoch ms).
 */
export const bucketsSql = (dialect: Dialect, slice: Slice): string => {
  const grain = GRAINS[slice.grain];
  const offset = slice.offsetMs ?? 0;
  const from = slice.parameters ? 'CAST(? AS BIGINT)' : `CAST(${slice.fromMs} AS BIGINT)`;
  const to = slice.parameters ? 'CAST(? AS BIGINT)' : `CAST(${slice.toMs} AS BIGINT)`;
  if (grain === 0) return `(SELECT ${from} AS bucket_ms, ${to} AS end_ms)`;
  const changes = slice.offsetChanges ?? [];
  if (changes.length > 0) {
    // Buckets of 23 or 25 hours: listed (a report has at most 3,000), never in a named query.
    const starts = bucketStarts(slice.fromMs, slice.toMs, grain, offset, changes);
    const rows = starts.map(
      (b, i) => `(CAST(${b} AS BIGINT), CAST(${starts[i + 1] ?? slice.toMs} AS BIGINT))`,
    );
    return `(SELECT * FROM (VALUES ${rows.join(', ')}) AS g(bucket_ms, end_ms))`;
  }
  const first = `CAST(floor((${from} + ${offset}) / ${grain}) * ${grain} - ${offset} AS BIGINT)`;
  const series =
    dialect === 'duckdb'
      ? `(SELECT s.range AS b, ${to} AS t FROM range(${first}, ${to}, ${grain}) s)`
      : `(SELECT s.b, x.t FROM (SELECT ${first} AS f, ${to} AS t) x CROSS JOIN UNNEST(sequence(x.f, x.t - 1, ${grain})) AS s(b))`;
  return `(SELECT CAST(b AS BIGINT) AS bucket_ms, CAST(least(b + ${grain}, t) AS BIGINT) AS end_ms FROM ${series} g)`;
};

/** A metric's SQL for one engine and slice (no placeholder left). */
export const renderSql = (sql: string, dialect: Dialect, slice: Slice): string =>
  sql
    .replace(/\{\{events\}\}/g, () => eventsSql(slice))
    .replace(/\{\{payments\}\}/g, () => paymentsSql(slice))
    .replace(/\{\{buckets\}\}/g, () => bucketsSql(dialect, slice))
    .replace(/\{\{p(\d{2})\((.+?)\)\}\}/g, (_, p: string, expr: string) =>
      dialect === 'duckdb' ? `quantile_cont(${expr}, 0.${p})` : `approx_percentile(${expr}, 0.${p})`,
    );

/** A metric: its SQL and what its header says (definition, unit, charted column, label). */
export interface Metric {
  name: string;
  sql: string;
  label: string;
  definition: string;
  unit: string;
  /** The value column the report charts over time; none for a ranking. */
  chart?: string;
  /** The unit of the charted column, the chart's y-axis title (`-- axis:`; the unit when it has one). */
  axis: string;
  /** A bucket without rows means 0 (counts and sums), not "no data" (ratios, percentiles). */
  gapsAreZero: boolean;
}

const header = (sql: string, key: string) =>
  sql.match(new RegExp(`^--\\s*${key}:\\s*(.+)$`, 'm'))?.[1]?.trim();

/** Every metric (analytics/queries/*.sql), by name (the file name without .sql). */
export const metrics = (): Map<string, Metric> =>
  new Map(
    readdirSync(QUERIES_DIR)
      .filter((f) => f.endsWith('.sql'))
      .sort()
      .map((f) => {
        const sql = readFileSync(join(QUERIES_DIR, f), 'utf8');
        const name = f.replace(/\.sql$/, '');
        return [
          name,
          {
            name,
            sql,
            label: header(sql, 'label') ?? name,
            definition: sql.split('\n')[0]!.replace(/^--\s*/, ''),
            unit: header(sql, 'unit') ?? '',
            chart: header(sql, 'chart'),
            axis: header(sql, 'axis') ?? header(sql, 'unit') ?? '',
            gapsAreZero: header(sql, 'gaps') === 'zero',
          },
        ];
      }),
  );

/** Every metric: name → SQL text with placeholders. */
export const metricQueries = (): Map<string, string> =>
  new Map([...metrics()].map(([name, metric]) => [name, metric.sql]));

/**
 * The event table's columns: the DuckDB view here and the Glue table in infra/analytics.ts are
 * both built from this list (partition columns `family`, `dt`, `hour` come from the key layout).
 */
export const EVENT_COLUMNS = {
  event_id: 'string',
  type: 'string',
  session_id: 'string',
  content_id: 'string',
  channel_id: 'string',
  device_type: 'string',
  account_id: 'string',
  client_ts: 'string',
  client_ts_ms: 'bigint',
  received_at: 'string',
  received_at_ms: 'bigint',
  position_seconds: 'double',
  playing_seconds: 'double',
  rebuffer_seconds: 'double',
  rebuffer_ms: 'bigint',
  bitrate_kbps: 'bigint',
  width: 'bigint',
  height: 'bigint',
  code: 'string',
  message: 'string',
  fatal: 'boolean',
  reason: 'string',
  ad_id: 'string',
  emoji: 'string',
  program_id: 'string',
  autoplay: 'boolean',
  country: 'string',
  player_name: 'string',
  player_version: 'string',
  client_version: 'string',
} as const;

const DUCKDB_TYPES = { string: 'VARCHAR', bigint: 'BIGINT', double: 'DOUBLE', boolean: 'BOOLEAN' } as const;

export type Row = Record<string, string | number | boolean | null>;

const columnsOf = (columns: Record<string, keyof typeof DUCKDB_TYPES>) =>
  Object.entries(columns)
    .map(([name, type]) => `${name}: '${DUCKDB_TYPES[type]}'`)
    .join(', ');

/** The NDJSON files of one family (`<dir>/family=<f>/dt=…/hour=…/*.ndjson`), as a DuckDB glob. */
const globOf = (dir: string, family: string) =>
  `'${join(dir, `family=${family}`, 'dt=*', 'hour=*', '*.ndjson').replace(/'/g, "''")}'`;

const readJson = (globs: string[], columns: Record<string, keyof typeof DUCKDB_TYPES>) =>
  `read_json([${globs.join(', ')}], hive_partitioning = true, hive_types_autocast = false, format = 'newline_delimited', columns = {${columnsOf(columns)}})`;

/**
 * A DuckDB connection over a local analytics folder: `events` and `titles`, views over the files
 * (every query reads them, as Athena reads S3), or with `load` the events read once into memory
 * (the report runs 20 queries).
 */
export const openAnalytics = async (dir: string, options: { load?: boolean } = {}) => {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  const families = ['video', 'live'].filter((f) => existsSync(join(dir, `family=${f}`)));
  const paid = existsSync(join(dir, 'family=payment'));
  if (families.length === 0 && !paid) {
    connection.closeSync();
    throw new Error(`No analytics events under ${dir} yet: play something against npm start first`);
  }
  /**
   * A table of `columns` over the files of `families`, or an empty one when there are none, with
   * the same columns: the file columns and the partition columns the key layout adds (`family`,
   * `dt`, `hour`, text as hive_types_autocast = false reads them), which the queries name too.
   */
  const table = (name: string, families: string[], columns: Record<string, keyof typeof DUCKDB_TYPES>) => {
    const empty = { ...columns, family: 'string', dt: 'string', hour: 'string' } as const;
    return connection.run(
      families.length > 0
        ? `CREATE ${options.load ? 'TABLE' : 'VIEW'} ${name} AS SELECT * FROM ${readJson(
            families.map((f) => globOf(dir, f)),
            columns,
          )}`
        : `CREATE TABLE ${name} AS SELECT * FROM (VALUES (${Object.values(empty)
            .map((type) => `NULL::${DUCKDB_TYPES[type]}`)
            .join(', ')})) v(${Object.keys(empty).join(', ')}) WHERE false`,
    );
  };
  await table('events', families, EVENT_COLUMNS);
  await table('titles', existsSync(join(dir, 'family=catalog')) ? ['catalog'] : [], TITLE_COLUMNS);
  await table('payments', paid ? ['payment'] : [], PAYMENT_COLUMNS);
  const query = async (sql: string): Promise<Row[]> => {
    const reader = await connection.runAndReadAll(sql);
    return reader
      .getRowObjectsJS()
      .map(
        (row) =>
          Object.fromEntries(
            Object.entries(row).map(([k, v]) => [
              k,
              typeof v === 'bigint' ? Number(v) : v === undefined ? null : v,
            ]),
          ) as Row,
      );
  };
  return { connection, query, close: () => connection.closeSync() };
};

/**
 * Runs metric queries in DuckDB over the local NDJSON files (`<dir>/family=…/dt=…/hour=…/*.ndjson`,
 * the same layout as the S3 prefixes) for one slice; `names` picks metrics (default: all).
 */
export const runMetrics = async (
  dir: string,
  slice: Slice,
  names?: readonly string[],
): Promise<Map<string, Row[]>> => (await runSlices(dir, [slice], names))[0]!;

/** `runMetrics` for several slices over one connection, the events read once. */
export const runSlices = async (
  dir: string,
  slices: readonly Slice[],
  names?: readonly string[],
): Promise<Array<Map<string, Row[]>>> => {
  const analytics = await openAnalytics(dir, { load: slices.length > 1 });
  try {
    const answers: Array<Map<string, Row[]>> = [];
    for (const slice of slices) {
      const results = new Map<string, Row[]>();
      for (const [name, metric] of metrics()) {
        if (names && !names.includes(name)) continue;
        results.set(name, await analytics.query(renderSql(metric.sql, 'duckdb', slice)));
      }
      answers.push(results);
    }
    return answers;
  } finally {
    analytics.close();
  }
};
