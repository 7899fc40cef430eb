/**
 * What a day's dashboard scans, in JSON (what Firehose writes today: GZIP NDJSON) and in Parquet
 * (what Firehose record format conversion would write), measured on the same synthetic events
 * (docs/analytics.md, "Freshness and cost"):
 *
 *   npx tsx analytics/measure-formats.ts [--sessions 20000] [--dir /tmp/analytics-formats]
 *
 * It writes realistic sessions through the same record builder as the API (shared/analytics/
 * ingest.ts `toRecord`) into `<dir>/json/family=…/dt=…/hour=…/events.ndjson`, gzips them,
 * converts the same rows to Parquet with DuckDB (`COPY … (FORMAT parquet)`, Snappy, as Firehose
 * does), runs every metric over both, and prints bytes per event, the bytes DuckDB read (the
 * process's `rchar`) and the scale-up to 1 million sessions a day.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { type ClientEvent, toRecord } from '../shared/analytics/ingest.ts';
import type { AnalyticsRecord } from '../shared/analytics/sink.ts';
import { metrics, openAnalytics, renderSql } from './metrics.ts';

const { values } = parseArgs({
  options: {
    sessions: { type: 'string', default: '20000' },
    dir: { type: 'string', default: '/tmp/analytics-formats' },
  },
});
const SESSIONS = Number(values.sessions);
const dir = values.dir;
rmSync(dir, { recursive: true, force: true });

/** A deterministic pseudo-random sequence (mulberry32), so runs compare. */
let seed = 42;
const random = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
const uuid = () =>
  'xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx'.replace(/[xy]/g, (c) =>
    (c === 'x' ? Math.floor(random() * 16) : 8 + Math.floor(random() * 4)).toString(16),
  );

const DAY = Date.parse('2026-11-22T00:00:00Z');
const DEVICES = ['web', 'ios', 'android', 'roku', 'firetv', 'appletv'] as const;
const PLAYERS: Record<string, [string, string]> = {
  web: ['hls.js', '1.7.4'],
  ios: ['avplayer', '18.1'],
  android: ['exoplayer', '1.5.0'],
  roku: ['roku', '14.0'],
  firetv: ['exoplayer', '1.4.1'],
  appletv: ['avplayer', '18.1'],
};
const RENDITIONS = [
  [1080, 1920, 6000],
  [720, 1280, 3000],
  [480, 854, 1200],
] as const;

/** One session: start, player events, a rendition, a heartbeat every 30 s, sometimes a stall, the end. */
const session = (): Array<[ClientEvent, 'video' | 'live']> => {
  const live = random() < 0.2;
  const device = pick(DEVICES);
  const [player_name, player_version] = PLAYERS[device]!;
  const base = {
    session_id: uuid(),
    device_type: device,
    player_name,
    player_version,
    client_version: pick(['3.12.0', '3.11.2', '3.10.7']),
    ...(live
      ? { channel_id: `ch_${String(1 + Math.floor(random() * 60)).padStart(4, '0')}` }
      : {
          content_id: `ep_${String(1 + Math.floor(random() * 400)).padStart(4, '0')}_s1e0${1 + Math.floor(random() * 8)}`,
        }),
  };
  const t0 = DAY + Math.floor(random() * 86_000_000);
  const ts = (ms: number) => ({ event_id: uuid(), client_ts: new Date(t0 + ms).toISOString() });
  const minutes = Math.max(1, Math.round(-Math.log(1 - random()) * 20)); // mean 20 minutes
  const family = live ? 'live' : 'video';
  const events: ClientEvent[] = [
    { ...base, ...ts(0), type: 'start', position_seconds: 0, autoplay: false } as ClientEvent,
    { ...base, ...ts(300), type: 'playerready' } as ClientEvent,
    { ...base, ...ts(400), type: 'play' } as ClientEvent,
    {
      ...base,
      ...ts(400 + Math.floor(random() * 3000)),
      type: 'playing',
      position_seconds: 0,
    } as ClientEvent,
  ];
  const [height, width, bitrate_kbps] = pick(RENDITIONS);
  events.push({
    ...base,
    ...ts(5000),
    type: 'renditionchange',
    position_seconds: 5,
    height,
    width,
    bitrate_kbps,
  } as ClientEvent);
  for (let beat = 1; beat <= minutes * 2; beat++) {
    if (random() < 0.02) {
      events.push({
        ...base,
        ...ts(beat * 30_000 - 5000),
        type: 'rebufferstart',
        position_seconds: beat * 30 - 5,
      } as ClientEvent);
      events.push({
        ...base,
        ...ts(beat * 30_000 - 3000),
        type: 'rebufferend',
        position_seconds: beat * 30 - 5,
        rebuffer_ms: 2000,
      } as ClientEvent);
    }
    events.push({
      ...base,
      ...ts(beat * 30_000),
      type: 'heartbeat',
      position_seconds: beat * 30,
      playing_seconds: 30,
      rebuffer_seconds: 0,
    } as ClientEvent);
  }
  events.push({
    ...base,
    ...ts(minutes * 60_000 + 10_000),
    type: 'end',
    position_seconds: minutes * 60,
    playing_seconds: 10,
    reason: live ? 'user_exit' : 'completed',
  } as ClientEvent);
  return events.map((e) => [e, family]);
};

// Write the JSON files, one per family and hour, as the sink lays them out.
const files = new Map<string, string[]>();
let events = 0;
for (let i = 0; i < SESSIONS; i++) {
  for (const [event, family] of session()) {
    const now = new Date(Date.parse(String(event.client_ts)) + 2000);
    const record: AnalyticsRecord = toRecord(event, family, {
      now,
      country: pick(['FR', 'US', 'DE', 'GB', 'unknown']),
    });
    const file = join(
      dir,
      'json',
      `family=${family}`,
      `dt=${record.received_at.slice(0, 10)}`,
      `hour=${record.received_at.slice(11, 13)}`,
    );
    if (!files.has(file)) files.set(file, []);
    files.get(file)!.push(JSON.stringify(record));
    events++;
  }
}
let rawBytes = 0;
let gzipBytes = 0;
for (const [folder, lines] of files) {
  mkdirSync(folder, { recursive: true });
  const text = `${lines.join('\n')}\n`;
  writeFileSync(join(folder, 'events.ndjson'), text);
  rawBytes += Buffer.byteLength(text);
  gzipBytes += gzipSync(text).length;
}

const analytics = await openAnalytics(join(dir, 'json'));
const { connection } = analytics;
await connection.run(
  `COPY (SELECT * FROM events) TO '${join(dir, 'parquet')}' (FORMAT parquet, COMPRESSION snappy, PARTITION_BY (family, dt, hour))`,
);
const sizeOf = (root: string, ext: string): number =>
  readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith(ext))
    .reduce((sum, f) => sum + statSync(join(root, f)).size, 0);
const parquetBytes = sizeOf(join(dir, 'parquet'), '.parquet');

/**
 * Bytes a query read from files: the process's `rchar` (/proc/self/io, every byte read through
 * read/pread, page cache hits included) before and after; DuckDB runs in this process.
 */
const rchar = () => Number(readFileSync('/proc/self/io', 'utf8').match(/^rchar: (\d+)/m)?.[1] ?? Number.NaN);
const bytesRead = async (sql: string): Promise<number> => {
  const before = rchar();
  await connection.run(sql);
  return rchar() - before;
};
const slice = { fromMs: DAY, toMs: DAY + 86_400_000, grain: 'hour' as const, by: 'device' as const };
const dashboard = [...metrics().values()].map((m) => renderSql(m.sql, 'duckdb', slice));
let jsonRead = 0;
for (const sql of dashboard) jsonRead += await bytesRead(sql);
await connection.run('DROP VIEW events');
await connection.run(
  `CREATE VIEW events AS SELECT * FROM read_parquet('${join(dir, 'parquet')}/*/*/*/*.parquet', hive_partitioning = true, hive_types_autocast = false)`,
);
let parquetRead = 0;
for (const sql of dashboard) parquetRead += await bytesRead(sql);
// Athena reads only the columns a query names from Parquet; from JSON it reads whole (gzip) files.
const columnBytes = await analytics.query(
  `SELECT sum(total_compressed_size) AS bytes FROM parquet_metadata('${join(dir, 'parquet')}/*/*/*/*.parquet') WHERE path_in_schema IN ('session_id','type','content_id','channel_id','account_id','client_ts_ms','playing_seconds','rebuffer_ms','fatal','height','device_type','player_name','player_version','client_version','country')`,
);
analytics.close();

const perMillion = (bytes: number) => (bytes / SESSIONS) * 1_000_000;
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(2)} MB`;
const gb = (bytes: number) => `${(bytes / 1e9).toFixed(2)} GB`;
const parquetColumns = Number(columnBytes[0]?.bytes ?? 0);
const queries = dashboard.length;
console.log(
  `${SESSIONS} sessions, ${events} events (${(events / SESSIONS).toFixed(1)} per session), one day`,
);
console.log(`JSON (NDJSON, as locally): ${mb(rawBytes)}, ${(rawBytes / events).toFixed(0)} B/event`);
console.log(`JSON GZIP (what Firehose writes): ${mb(gzipBytes)}, ${(gzipBytes / events).toFixed(1)} B/event`);
console.log(
  `Parquet Snappy, all columns: ${mb(parquetBytes)}, ${(parquetBytes / events).toFixed(1)} B/event`,
);
console.log(
  `Parquet, the 15 columns the metric queries name: ${mb(parquetColumns)}, ${(parquetColumns / events).toFixed(1)} B/event`,
);
console.log(`Bytes read for the ${queries} metrics (a day, by device, per hour), as DuckDB read them:`);
console.log(
  `  JSON (NDJSON): ${mb(jsonRead)}, ${(jsonRead / queries / rawBytes).toFixed(2)} x the files per query (whole files)`,
);
console.log(
  `  Parquet (the same rows): ${mb(parquetRead)}, ${(parquetRead / queries / parquetBytes).toFixed(2)} x the files per query (the column chunks a query names)`,
);
console.log(
  `At 1 million sessions a day (x${(1_000_000 / SESSIONS).toFixed(0)}), a day's dashboard (${queries} queries; Athena bills bytes read, 10 MB minimum per query):`,
);
console.log(
  `  GZIP JSON (whole objects): ${gb(perMillion(gzipBytes))} per query, ${gb(perMillion(gzipBytes) * queries)} per dashboard`,
);
console.log(
  `  Parquet: at most ${gb(perMillion(parquetColumns))} per query (all 15 columns), ${gb(perMillion(parquetColumns) * queries)} per dashboard; at DuckDB's measured ratio ${gb(perMillion(parquetRead))}`,
);
