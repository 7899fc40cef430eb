import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * The metric queries (analytics/queries/*.sql) and the one place their two dialects differ:
 * percentiles. Queries write `{{p50(expr)}}` / `{{p95(expr)}}`; DuckDB renders quantile_cont,
 * Athena (Trino) approx_percentile. Everything else is SQL both engines accept (tested in DuckDB).
 */
export const QUERIES_DIR = resolve(import.meta.dirname, 'queries');

export type Dialect = 'duckdb' | 'athena';

export const renderSql = (sql: string, dialect: Dialect): string =>
  sql.replace(/\{\{p(\d{2})\((.+?)\)\}\}/g, (_, p: string, expr: string) =>
    dialect === 'duckdb' ? `quantile_cont(${expr}, 0.${p})` : `approx_percentile(${expr}, 0.${p})`,
  );

/** Every metric: name (file name without .sql) → SQL text with placeholders. */
export const metricQueries = (): Map<string, string> =>
  new Map(
    readdirSync(QUERIES_DIR)
      .filter((f) => f.endsWith('.sql'))
      .sort()
      .map((f) => [f.replace(/\.sql$/, ''), readFileSync(join(QUERIES_DIR, f), 'utf8')]),
  );

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
} as const;

const DUCKDB_TYPES = { string: 'VARCHAR', bigint: 'BIGINT', double: 'DOUBLE', boolean: 'BOOLEAN' } as const;

export type Row = Record<string, string | number | boolean | null>;

/**
 * Runs metric queries in DuckDB over the local NDJSON files (`<dir>/family=…/dt=…/hour=…/*.ndjson`,
 * the same layout as the S3 prefixes), as the view `events`.
 */
export const runMetrics = async (dir: string, names?: readonly string[]): Promise<Map<string, Row[]>> => {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  const results = new Map<string, Row[]>();
  try {
    const glob = join(dir, 'family=*', 'dt=*', 'hour=*', '*.ndjson').replace(/'/g, "''");
    const columns = Object.entries(EVENT_COLUMNS)
      .map(([name, type]) => `${name}: '${DUCKDB_TYPES[type]}'`)
      .join(', ');
    const hasData = existsSync(dir) && readdirSync(dir).length > 0;
    if (!hasData)
      throw new Error(`No analytics events under ${dir} yet: play something against npm start first`);
    await connection.run(
      `CREATE VIEW events AS SELECT * FROM read_json('${glob}', hive_partitioning = true, format = 'newline_delimited', columns = {${columns}})`,
    );
    for (const [name, sql] of metricQueries()) {
      if (names && !names.includes(name)) continue;
      const reader = await connection.runAndReadAll(renderSql(sql, 'duckdb'));
      const rows = reader
        .getRowObjectsJS()
        .map((row) =>
          Object.fromEntries(
            Object.entries(row).map(([k, v]) => [
              k,
              typeof v === 'bigint' ? Number(v) : v === undefined ? null : v,
            ]),
          ),
        );
      results.set(name, rows as Row[]);
    }
  } finally {
    connection.closeSync();
  }
  return results;
};
